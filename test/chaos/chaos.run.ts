import Redis from 'ioredis';
import { outboxKey, SHARDS } from '../../src/outcomes/redis-intent.keys';
import { startTestChain } from '../../src/testing';
import { buildProduction } from '../support/production.server';
import { TEST_WEBHOOK_SECRET } from '../support/webhook.receiver';
import { ChaosReceiver } from './chaos.receiver';
import { ChaosRedis } from './chaos.redis';
import { Replica } from './chaos.replicas';
import { sendIntents } from './chaos.traffic';
import { type CursorReport, CursorWatch } from './cursor.watch';

export interface ChaosOptions {
  intents: number;
  /** Replica kills (SIGKILL, then a restart), at random moments while the intents are sent. */
  kills: number;
  /** Whether Redis is killed and restarted once, at a random moment. */
  restartRedis: boolean;
  /** Whether the receiver is down for the first fifth of the intents, then fails 10% of requests. */
  receiverChaos: boolean;
  /** How long, after the last intent was mined, every webhook may take to be accepted. */
  settleMs: number;
  log: (line: string) => void;
}

export interface ChaosReport {
  intents: number;
  /** Requests the receiver got: first attempts, retries and deliveries made again. */
  deliveries: number;
  answered500: number;
  unverified: number;
  uniqueIds: number;
  /** Requests past the first of their id (retries of failed attempts, deliveries made again). */
  duplicates: number;
  /** Ids accepted (2xx) more than once: the at-least-once repeats a receiver deduplicates. */
  acceptedTwice: number;
  missing: string[];
  unexpected: string[];
  outboxLeft: number;
  kills: number;
  redisRestarts: number;
  cursor: CursorReport;
  seconds: number;
  /** What went wrong in the chaos itself (a replica that did not come back). */
  errors: string[];
}

const PREFIX = 'chaos:';

/** The teardowns of runs under way, for a Ctrl-C: the replicas and Redis are not left behind. */
export const runningTeardowns = new Set<() => Promise<void>>();

/** Random thresholds in [from, to) of `count`, one per event, ascending. */
const moments = (events: number, count: number, from: number, to: number): number[] =>
  Array.from({ length: events }, () => Math.floor(count * (from + Math.random() * (to - from))))
    .map((n) => Math.max(1, n))
    .sort((a, b) => a - b);

/**
 * The chaos proof of issue 43: two replicas of the production build on one private Redis settle
 * `intents` intents on the local chain while replicas are killed and restarted, Redis is
 * restarted, and the webhook receiver is down, then failing a tenth of the requests. Every
 * moment of chaos is tied to the progress of the intents (the nth mined), so the run waits on
 * events only; which nth is random.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const started = Date.now();
  const { log } = options;
  const [build, redis, testChain, receiver] = await Promise.all([
    buildProduction(),
    ChaosRedis.start(),
    startTestChain(),
    ChaosReceiver.start(TEST_WEBHOOK_SECRET),
  ]);
  log(`built, chain and Redis up (${Math.round((Date.now() - started) / 1000)} s)`);
  const replicas: Replica[] = [];
  let cursor: CursorWatch | undefined;
  const teardown = async (): Promise<void> => {
    runningTeardowns.delete(teardown);
    cursor?.stop();
    await Promise.all(replicas.map((replica) => replica.kill()));
    await receiver.down();
    await testChain.stop();
    await redis.stop();
    await build.remove();
  };
  runningTeardowns.add(teardown);
  try {
    const env = {
      ...testChain.env,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: PREFIX,
      // info: the replicas' `Listening on` line, which a restart waits for, is logged at info.
      LOG_LEVEL: 'info',
      OUTCOME_POLL_MS: '100',
      OUTBOX_SWEEP_MS: '1000',
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      // 14 attempts from 50 ms, doubling: a delivery outlasts a receiver down for over a minute.
      WEBHOOK_BACKOFF_MS: '50',
      WEBHOOK_MAX_ATTEMPTS: '14',
      WEBHOOK_TIMEOUT_MS: '5000',
      INTENT_MAX_OPEN_PER_USER: '10000',
      RATE_LIMIT_IP_MAX: '1000000',
      RATE_LIMIT_USER_MAX: '1000000',
    };
    replicas.push(
      ...(await Promise.all(['a', 'b'].map((name) => Replica.start(name, build.main, env)))),
    );
    log(`replicas up on ${replicas.map((r) => r.port).join(', ')}`);
    const key = `${PREFIX}follower:{chain:${testChain.chain.chainId}}:cursor`;
    cursor = new CursorWatch(redis.url, key);

    // Each event runs after the one before: never two replicas down by the run's own doing.
    const errors: string[] = [];
    let chaos = Promise.resolve();
    const schedule = (what: string, event: () => Promise<void>): void => {
      chaos = chaos.then(() => {
        log(what);
        return event().catch((error: Error) => void errors.push(`${what}: ${error.message}`));
      });
    };
    const plan = new Map<number, (() => void)[]>();
    const at = (n: number, event: () => void): void => {
      plan.set(n, [...(plan.get(n) ?? []), event]);
    };
    for (const n of moments(options.kills, options.intents, 0.05, 0.9)) {
      const replica = replicas[Math.floor(Math.random() * replicas.length)];
      at(n, () => schedule(`#${n}: kill -9 replica ${replica.name}`, () => replica.crash()));
    }
    if (options.restartRedis)
      for (const n of moments(1, options.intents, 0.3, 0.7))
        at(n, () => schedule(`#${n}: kill -9 Redis, restart`, () => redis.restart()));
    if (options.receiverChaos) {
      await receiver.down();
      at(Math.max(1, Math.floor(options.intents / 5)), () =>
        schedule('receiver up, answering 500 to 10%', async () => {
          await receiver.up();
          receiver.failureRate = 0.1;
        }),
      );
    }

    let sent = 0;
    const expected = await sendIntents(testChain, replicas, options.intents, () => {
      sent += 1;
      for (const event of plan.get(sent) ?? []) event();
      if (sent % 100 === 0) log(`${sent} intents mined`);
    });
    await chaos;
    log(`all ${expected.length} intents mined; waiting for their webhooks`);
    const ids = new Set(expected.map((intent) => `${intent}.confirmed`));
    const { accepted } = receiver.counts;
    const allIn = (): boolean => [...ids].every((id) => accepted.has(id));
    await receiver
      .until(allIn, Date.now() + options.settleMs, 'every webhook accepted')
      .catch((error: Error) => errors.push(error.message));
    const admin = new Redis(redis.url);
    const sizes = await Promise.all(SHARDS.map((n) => admin.hlen(`${PREFIX}${outboxKey(n)}`)));
    const outboxLeft = sizes.reduce((a, b) => a + b, 0);
    await admin.quit();
    const counts = receiver.counts;
    return {
      intents: expected.length,
      deliveries: counts.requests,
      answered500: counts.failed,
      unverified: counts.unverified,
      uniqueIds: accepted.size,
      duplicates: counts.requests - accepted.size,
      acceptedTwice: [...accepted.values()].filter((times) => times > 1).length,
      missing: [...ids].filter((id) => !accepted.has(id)),
      unexpected: [...accepted.keys()].filter((id) => !ids.has(id)),
      outboxLeft,
      kills: replicas.reduce((sum, replica) => sum + replica.kills, 0),
      redisRestarts: redis.restarts,
      cursor: cursor.stop(),
      seconds: Math.round((Date.now() - started) / 1000),
      errors,
    };
  } finally {
    await teardown();
  }
}

/** Whether the run proved the claim: every webhook accepted, none unknown, the cursor monotone. */
export function passed(report: ChaosReport): boolean {
  return (
    report.errors.length === 0 &&
    report.missing.length === 0 &&
    report.unexpected.length === 0 &&
    report.unverified === 0 &&
    report.cursor.backwards.length === 0 &&
    report.cursor.samples > 0
  );
}
