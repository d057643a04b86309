import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import Redis from 'ioredis';
import { verifyWebhook } from '../../src/kit';
import { WEBHOOK_HEADERS } from '../../src/kit/webhook-signature';
import { OUTCOME_SINK, type OutcomeSink } from '../../src/outcomes/outcome.types';
import { WEBHOOK_QUEUE, WebhookProcessor } from '../../src/outcomes/webhooks/bullmq-delivery.queue';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';
import { createTestApp } from '../support/app.factory';
import { parseExposition, valueOf } from '../support/prometheus.helper';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';
import {
  AttemptWatch,
  outcomeOf,
  TEST_WEBHOOK_SECRET as SECRET,
  WebhookReceiver,
} from '../support/webhook.receiver';

const MAX_ATTEMPTS = 3;

/** Small retry settings so a suite waits milliseconds between attempts, not seconds. */
function webhookEnv(receiver: WebhookReceiver): Record<string, string> {
  return {
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: SECRET,
    WEBHOOK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    WEBHOOK_BACKOFF_MS: '20',
    WEBHOOK_TIMEOUT_MS: '300',
  };
}

async function deliveries(app: NestFastifyApplication, result: string): Promise<number> {
  const samples = parseExposition(await app.get(ActionMetrics).registry.metrics());
  const labels = { type: 'transaction.confirmed', result };
  return valueOf(samples, 'dynamic_action_webhook_deliveries_total', labels) ?? 0;
}

/** Resolves when BullMQ's worker has failed the job's last attempt (its state then settled). */
function lastFailure(app: NestFastifyApplication, id: string): Promise<void> {
  const { worker } = app.get(WebhookProcessor);
  return new Promise((resolve) => {
    const onFailed = (job?: Job): void => {
      if (job?.id !== id || job.attemptsMade < MAX_ATTEMPTS) return;
      worker.off('failed', onFailed);
      resolve();
    };
    worker.on('failed', onFailed);
  });
}

const modes: [string, jest.Describe, () => Record<string, string>][] = [
  ['in memory (no REDIS_URL)', describe, () => ({})],
  [
    'through BullMQ on Redis',
    describeWithRedis(),
    () => ({ REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: runKeyPrefix('webhooks') }),
  ],
];

describe.each(modes)('Webhooks %s', (_mode, describeMode, storeEnv) => {
  describeMode('', () => {
    let receiver: WebhookReceiver;
    let app: NestFastifyApplication;
    let sink: OutcomeSink;
    let attempts: AttemptWatch;
    const store = storeEnv();

    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
      app = await createTestApp({ env: { ...webhookEnv(receiver), ...store } });
      sink = app.get<OutcomeSink>(OUTCOME_SINK);
      attempts = new AttemptWatch(app);
    });
    afterAll(async () => {
      await app?.close();
      await receiver?.close();
      if (store.REDIS_KEY_PREFIX) {
        const admin = new Redis(REDIS_TEST_URL);
        await deleteKeys(admin, store.REDIS_KEY_PREFIX);
        admin.disconnect();
      }
    });

    it('retries a 500 and delivers once, every attempt signed under the same webhook-id', async () => {
      receiver.answer = (nth) => (nth === 1 ? 500 : 200);
      const before = await deliveries(app, 'delivered');
      await sink.deliver(outcomeOf('intentRetry'));
      await receiver.until(() =>
        receiver.of('intentRetry.confirmed').some((r) => r.answered === 200),
      );

      const received = receiver.of('intentRetry.confirmed');
      expect(received.map((r) => r.answered)).toEqual([500, 200]);
      for (const { headers, body } of received) {
        expect(headers['content-type']).toBe('application/json');
        const verified = verifyWebhook({ secret: SECRET, headers, rawBody: body });
        expect(verified).toMatchObject({ ok: true, id: 'intentRetry.confirmed' });
      }
      const [first, second] = received;
      expect(second.body).toBe(first.body);
      expect(JSON.parse(second.body)).toEqual({
        id: 'intentRetry.confirmed',
        type: 'transaction.confirmed',
        intent: 'intentRetry',
        action: '/api/send-token',
        chainId: 31337,
        user: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
        hash: `0x${'ab'.repeat(32)}`,
        blockNumber: '12',
        occurredAt: '2026-01-01T00:00:00.000Z',
      });
      await attempts.until(() =>
        attempts.settled.some((a) => a.id === first.headers[WEBHOOK_HEADERS.id] && a.ok),
      );
      expect(await deliveries(app, 'delivered')).toBe(before + 1);
      expect(await deliveries(app, 'retried')).toBeGreaterThanOrEqual(1);
    });

    it('delivers the same outcome once however often it is handed over', async () => {
      receiver.answer = () => 200;
      const twice = outcomeOf('intentTwice', 'expired');
      await Promise.all([sink.deliver(twice), sink.deliver(twice)]);
      await receiver.until(() => receiver.of('intentTwice.expired').length > 0);
      await sink.deliver(twice);
      // A later delivery arrives: had a copy been queued, it would have been sent before it.
      await sink.deliver(outcomeOf('intentAfter', 'reverted'));
      await receiver.until(() => receiver.of('intentAfter.reverted').length > 0);
      expect(receiver.of('intentTwice.expired')).toHaveLength(1);
      expect(JSON.parse(receiver.of('intentTwice.expired')[0].body)).toMatchObject({
        type: 'transaction.expired',
        hash: null,
        blockNumber: null,
      });
    });

    it('retries an attempt the receiver does not answer within WEBHOOK_TIMEOUT_MS', async () => {
      receiver.answer = (nth) => (nth === 1 ? 'hang' : 200);
      await sink.deliver(outcomeOf('intentSlow', 'reverted'));
      await receiver.until(() =>
        receiver.of('intentSlow.reverted').some((r) => r.answered === 200),
      );
      expect(receiver.of('intentSlow.reverted').map((r) => r.answered)).toEqual(['none', 200]);
      const failed = attempts.settled.find((a) => a.id === 'intentSlow.reverted');
      expect(failed).toEqual({ id: 'intentSlow.reverted', attempt: 1, ok: false });
    });

    it(`stops after WEBHOOK_MAX_ATTEMPTS (${MAX_ATTEMPTS}) failed attempts`, async () => {
      receiver.answer = () => 503;
      const settledInQueue = store.REDIS_URL ? lastFailure(app, 'intentDown.confirmed') : null;
      await sink.deliver(outcomeOf('intentDown'));
      await attempts.until(() =>
        attempts.settled.some((a) => a.id === 'intentDown.confirmed' && a.attempt === MAX_ATTEMPTS),
      );
      // Counted failed (not retried): the sender was told it was the last attempt...
      expect(await deliveries(app, 'failed')).toBe(1);
      // ...and BullMQ, which schedules attempts with Redis, holds it as failed for good.
      if (settledInQueue) {
        await settledInQueue;
        const queue = app.get<Queue>(getQueueToken(WEBHOOK_QUEUE));
        expect(await queue.getJobState('intentDown.confirmed')).toBe('failed');
      }
      // A later delivery goes through meanwhile; the failed one was tried exactly 3 times.
      receiver.answer = () => 200;
      await sink.deliver(outcomeOf('intentLater'));
      await receiver.until(() => receiver.of('intentLater.confirmed').length > 0);
      expect(receiver.of('intentDown.confirmed').map((r) => r.answered)).toEqual([503, 503, 503]);
    });
  });
});

describeWithRedis()('Webhooks through BullMQ across a restart', () => {
  const prefix = runKeyPrefix('hooks2');
  const id = 'intentRestart.confirmed';
  let receiver: WebhookReceiver;
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await receiver?.close();
    const admin = new Redis(REDIS_TEST_URL);
    await deleteKeys(admin, prefix);
    admin.disconnect();
  });

  it('delivers, from the next instance, what a closed one queued and could not deliver', async () => {
    const env = {
      ...webhookEnv(receiver),
      WEBHOOK_MAX_ATTEMPTS: '8',
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: prefix,
    };
    receiver.answer = () => 500;
    const first = await createTestApp({ env });
    await first.get<OutcomeSink>(OUTCOME_SINK).deliver(outcomeOf('intentRestart'));
    await receiver.until(() => receiver.of(id).some((r) => r.answered === 500));
    // Closing waits for the attempt in flight; the delivery then waits in Redis for its retry.
    await first.close();
    const beforeRestart = receiver.of(id).length;

    receiver.answer = () => 200;
    apps.push(await createTestApp({ env }));
    await receiver.until(() => receiver.of(id).some((r) => r.answered === 200));

    const received = receiver.of(id);
    expect(received).toHaveLength(beforeRestart + 1);
    expect(received.filter((r) => r.answered === 200)).toHaveLength(1);
    for (const { headers, body } of received)
      expect(verifyWebhook({ secret: SECRET, headers, rawBody: body })).toMatchObject({
        ok: true,
        id,
      });
  });
});
