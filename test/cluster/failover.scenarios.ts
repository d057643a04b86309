import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { HDAccount } from 'viem';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { signAndSend, startTestChain, type TestChain } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { heard, SendTokenWithHookModule } from '../support/outcomes.helper';
import {
  nonceOf,
  postSignIn,
  postWithToken,
  SIWE_BASE,
  siweMessage,
  signInAs,
} from '../support/siwe.helper';
import { until } from '../support/redis-cluster.helper';
import { TEST_WEBHOOK_SECRET, WebhookReceiver } from '../support/webhook.receiver';

/** What the scenarios run on: a Redis of some topology, and how to fail its primary over. */
export interface SharedRedis {
  /** REDIS_URL and friends that point the service at it. */
  env: Record<string, string>;
  /**
   * Fails a primary over to its replica and resolves once the topology is whole again. `queueKey`
   * is a key of the webhook queue, for a topology that can choose which primary (a cluster).
   */
  failover(queueKey: string): Promise<void>;
}

const RATE_LIMIT = 5;
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
let ips = 0;
/** A client address of its own for each call, so only the rate-limit scenario meets a limit. */
const nextIp = (): string => `10.${(ips >> 16) & 255}.${(ips >> 8) & 255}.${ips++ & 255}`;

/** A send-token answer: its status and, when recorded, its intent. */
async function sendToken(
  app: NestFastifyApplication,
  user: string,
  ip = nextIp(),
): Promise<{ status: number; intent?: string; serialized?: string }> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/send-token?token=AVAX&recipient=${RECIPIENT}&amount=0.001`,
    headers: { 'x-wallet-address': user },
    remoteAddress: ip,
  });
  const intent = response.headers['x-action-intent'];
  const body =
    response.statusCode === 200 ? response.json<{ serializedTransaction: string }>() : undefined;
  return {
    status: response.statusCode,
    intent: typeof intent === 'string' ? intent : undefined,
    serialized: body?.serializedTransaction,
  };
}

/** An intent as either replica reads it (GET /api/transactions/:id), from an address of its own. */
async function readIntent(
  app: NestFastifyApplication,
  intent: string,
): Promise<{ status: number; body: { data?: { status: string } } & Record<string, unknown> }> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/transactions/${intent}`,
    remoteAddress: nextIp(),
  });
  return { status: response.statusCode, body: response.json() };
}

/**
 * The key scenarios of the sign-in, rate-limit, webhook and outcomes suites on two replicas of
 * the service (the real testing module) sharing one Redis topology, then a primary's failover in
 * the middle of traffic: every answer during it is 200 or 503, and what was written before it
 * (open intents, a webhook job waiting for its retry, a revoked session) is there after it.
 * Registered in a `describe` of their own inside the caller's, so that both replicas are closed
 * before the caller's `afterAll` stops Redis (a block's own hooks run after its children's);
 * `redis` is set up by the suite's own `beforeAll`.
 */
export function sharedRedisScenarios(redis: () => SharedRedis): void {
  describe('two replicas of the service on it', () => scenarios(redis));
}

function scenarios(redis: () => SharedRedis): void {
  let testChain: TestChain;
  let receiver: WebhookReceiver;
  let one: NestFastifyApplication;
  let two: NestFastifyApplication;
  let users: HDAccount[];

  beforeAll(async () => {
    testChain = await startTestChain();
    users = testChain.users;
    receiver = await WebhookReceiver.start();
    const env = {
      ...testChain.env,
      ...redis().env,
      OUTCOME_POLL_MS: '50',
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      WEBHOOK_BACKOFF_MS: '300',
      RATE_LIMIT_IP_MAX: String(RATE_LIMIT),
      PUBLIC_BASE_URL: SIWE_BASE,
      AUTH_SECRET: 'VNOk6xrS/fsF5mdetKt1cxLs2W18EGOfT+4HkLW7YhY=',
    };
    const actions = [SendTokenWithHookModule, MyTransactionsModule, CalculatorModule];
    [one, two] = await Promise.all([
      createTestApp({ env, actions }),
      createTestApp({ env, actions }),
    ]);
  }, 120_000);

  afterAll(async () => {
    // Both replicas close in full (the webhook worker's connections included) while Redis is up.
    await Promise.all([one, two].map((app) => app?.close()));
    await receiver?.close();
    await testChain?.stop();
  }, 60_000);

  const delivered = (intent: string): Promise<void> =>
    receiver.until(() => receiver.of(`${intent}.confirmed`).some((r) => r.answered === 200));

  it('answers, records and settles intents on either replica; the hook and the webhook hear it', async () => {
    const answer = await sendToken(one, users[0].address);
    expect([answer.status, typeof answer.intent]).toEqual([200, 'string']);
    expect((await readIntent(two, answer.intent!)).body.data?.status).toBe('answered');
    await signAndSend(testChain.chain, users[0], answer.serialized!);
    await heard(answer.intent!, 'confirmed');
    await delivered(answer.intent!);
    expect((await readIntent(one, answer.intent!)).body.data?.status).toBe('confirmed');
  });

  it('sign-in: a nonce is used once across replicas, a revoked session is refused by both', async () => {
    const user = users[1];
    const sign = (message: string): Promise<`0x${string}`> => user.signMessage({ message });
    const message = siweMessage({
      address: user.address,
      chainId: 43113,
      nonce: await nonceOf(one),
    });
    const signature = await sign(message);
    const answers = await Promise.all([
      postSignIn(two, message, signature),
      postSignIn(one, message, signature),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    const token = await signInAs(two, user.address, sign, 43113);
    expect((await postWithToken(one, '/api/my-transactions', token)).status).toBe(200);
    expect((await postWithToken(one, '/api/auth/logout', token)).status).toBe(200);
    expect((await postWithToken(two, '/api/my-transactions', token)).status).toBe(401);
  });

  it('rate limits: two replicas count one limit together', async () => {
    const ip = nextIp();
    const calls = Array.from({ length: RATE_LIMIT + 3 }, (_, i) =>
      (i % 2 === 0 ? one : two)
        .inject({ method: 'POST', url: '/api/calculator?operation=add&a=1&b=2', remoteAddress: ip })
        .then((r) => r.statusCode),
    );
    const codes = await Promise.all(calls);
    expect(codes.filter((c) => c === 200)).toHaveLength(RATE_LIMIT);
    expect(codes.filter((c) => c === 429)).toHaveLength(3);
  });

  it('a primary fails over mid-run: answers are 200 or 503, and nothing written before is lost', async () => {
    // Written before the switch: open intents on both replicas, a revoked session, and a webhook
    // job waiting for its retry (the receiver refuses its first attempt).
    // (On a loaded machine a command can pass the 500 ms timeout: that answer goes out without an
    // intent, counted, as designed; the scenario needs 8 recorded ones.)
    const before: { intent?: string; serialized?: string }[] = [];
    for (let i = 0; before.length < 8 && i < 40; i++) {
      const answer = await sendToken(i % 2 ? one : two, users[2].address);
      if (answer.intent) before.push(answer);
    }
    expect(before).toHaveLength(8);
    const user = users[3];
    const sign = (message: string): Promise<`0x${string}`> => user.signMessage({ message });
    const revoked = await signInAs(one, user.address, sign, 43113);
    expect((await postWithToken(two, '/api/auth/logout', revoked)).status).toBe(200);
    const waiting = await sendToken(one, user.address);
    let refusing = true;
    receiver.answer = (_nth, id) => (refusing && id === `${waiting.intent}.confirmed` ? 500 : 200);
    await signAndSend(testChain.chain, user, waiting.serialized!);
    await receiver.until(() => receiver.of(`${waiting.intent}.confirmed`).length > 0);

    // Traffic on both replicas, all through the switch.
    const statuses: number[] = [];
    let switching = true;
    const traffic = [one, two].map(async (app) => {
      while (switching) statuses.push((await sendToken(app, users[0].address)).status);
    });
    await redis().failover('{bull}');
    switching = false;
    refusing = false;
    await Promise.all(traffic);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);

    // After it (each replica answering again: its breaker closes on the next answered PING),
    // every intent, the deny-list entry and the waiting job are there.
    for (const app of [one, two]) {
      await until(
        'the replica answering again',
        async () => (await readIntent(app, before[0].intent!)).status !== 503,
      );
    }
    for (const { intent } of before) {
      for (const app of [one, two]) {
        const read = await readIntent(app, intent!);
        expect([read.status, read.body.data?.status ?? read.body]).toEqual([200, 'answered']);
      }
    }
    expect((await postWithToken(one, '/api/my-transactions', revoked)).status).toBe(401);
    await delivered(waiting.intent!);
    // And it settles what was answered before the switch.
    await signAndSend(testChain.chain, users[2], before[0].serialized!);
    await heard(before[0].intent!, 'confirmed');
    await delivered(before[0].intent!);
  }, 120_000);
}
