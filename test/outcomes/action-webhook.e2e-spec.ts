import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { type Address, type HDAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { verifyWebhook } from '../../src/kit';
import { DELIVERY_QUEUE, type WebhookDelivery } from '../../src/outcomes/webhooks/webhook-delivery';
import { sendAnswer, startTestChain, type TestChain } from '../../src/testing';
import { DonationModule } from '../fixtures/action-webhook.fixture';
import { createTestApp, postJson } from '../support/app.factory';
import { heard, SendTokenWithHookModule, sendTokenIntent } from '../support/outcomes.helper';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';
import { TEST_WEBHOOK_SECRET as SECRET, WebhookReceiver } from '../support/webhook.receiver';
import Redis from 'ioredis';

const PATH = '/api/fixture-donation';
/** The donation's own secret: not the service-wide one, so each receiver verifies its own. */
const ACTION_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/**
 * An action's own webhook (issue 46), on the delivery machinery of the service-wide one: the
 * donation fixture declares one with the fields it carries; send-token declares none. On a local
 * chain, nothing stood in for: the answer signed and sent, the follower confirming it.
 */
function actionWebhookSuite(queue: 'memory' | 'redis'): void {
  let testChain: TestChain;
  let user: HDAccount;
  let serviceWide: WebhookReceiver;
  let own: WebhookReceiver;
  let app: NestFastifyApplication;
  let enqueued: WebhookDelivery[];
  const prefix = runKeyPrefix('action-webhook');

  beforeAll(async () => {
    testChain = await startTestChain();
    user = testChain.users[0];
    [serviceWide, own] = await Promise.all([WebhookReceiver.start(), WebhookReceiver.start()]);
    app = await createTestApp({
      env: {
        ...testChain.env,
        OUTCOME_POLL_MS: '50',
        WEBHOOK_URL: serviceWide.url,
        WEBHOOK_SECRET: SECRET,
        WEBHOOK_BACKOFF_MS: '20',
        DONATION_WEBHOOK_URL: own.url,
        DONATION_WEBHOOK_SECRET: ACTION_SECRET,
        ...(queue === 'redis' && { REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: prefix }),
      },
      actions: [DonationModule, SendTokenWithHookModule],
    });
    // Every delivery queued, seen as the queue is handed it (the call goes through).
    const deliveries = app.get<{ enqueue(d: WebhookDelivery): Promise<void> }>(DELIVERY_QUEUE);
    enqueued = [];
    const enqueue = deliveries.enqueue.bind(deliveries);
    jest.spyOn(deliveries, 'enqueue').mockImplementation((delivery) => {
      enqueued.push(delivery);
      return enqueue(delivery);
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await Promise.all([serviceWide?.close(), own?.close()]);
    await testChain?.stop();
    if (queue === 'redis') {
      const admin = new Redis(REDIS_TEST_URL);
      await deleteKeys(admin, prefix);
      await admin.quit();
    }
  });

  it('posts the outcome to the action’s own receiver with its fields, signed with its secret, and to the service-wide one as before', async () => {
    const recipient: Address = privateKeyToAccount(generatePrivateKey()).address;
    const answer = await postJson(
      app,
      PATH,
      { params: { recipient, amount: '2.5', message: 'For the coffee' } },
      { 'x-user-address': user.address },
    );
    expect(answer.status).toBe(200);
    const intent = String(answer.headers['x-action-intent']);
    const { receipt } = await sendAnswer(testChain, user, answer.body as never);
    expect(receipt.status).toBe('success');

    const id = `${intent}.confirmed`;
    const delivered = (receiver: WebhookReceiver) => () =>
      receiver.of(id).some((request) => request.answered === 200);
    await Promise.all([own.until(delivered(own)), serviceWide.until(delivered(serviceWide))]);
    const [ownRequest] = own.of(id);
    const verify = (secret: string, request = ownRequest): unknown =>
      verifyWebhook({ secret, headers: request.headers, rawBody: request.body });
    expect(verify(ACTION_SECRET)).toMatchObject({ ok: true, id });
    expect(verify(SECRET)).toMatchObject({ ok: false, reason: 'bad-signature' });
    const common = {
      id,
      type: 'transaction.confirmed',
      intent,
      action: PATH,
      chainId: 43113,
      user: user.address,
      hash: receipt.transactionHash,
      blockNumber: receipt.blockNumber.toString(),
      occurredAt: expect.any(String),
    };
    // The transfer's own arguments and the displayed ones it names; `absent` is in none.
    expect(JSON.parse(ownRequest.body)).toEqual({
      ...common,
      fields: { amount: '2500000', recipient, token: 'USDC', message: 'For the coffee' },
    });

    const [wide] = serviceWide.of(id);
    expect(verify(SECRET, wide)).toMatchObject({ ok: true, id });
    expect(JSON.parse(wide.body)).toEqual(common);
  });

  it('posts an action without a webhook of its own to the service-wide receiver only', async () => {
    const to: Address = privateKeyToAccount(generatePrivateKey()).address;
    const sent = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: to, amount: '0.01' },
      user.address,
    );
    const { receipt } = await sendAnswer(testChain, user, sent.body as never);
    expect(receipt.status).toBe('success');
    // Its hooks run once the sink has queued every delivery of the outcome.
    await heard(sent.intent, 'confirmed');
    const queued = enqueued.filter((delivery) => delivery.id === `${sent.intent}.confirmed`);
    expect(queued.map((delivery) => delivery.target)).toEqual([undefined]);
    await serviceWide.until(() => serviceWide.of(`${sent.intent}.confirmed`).length > 0);
    expect(own.of(`${sent.intent}.confirmed`)).toEqual([]);
  });
}

describe('An action’s own webhook, deliveries queued in memory', () => {
  actionWebhookSuite('memory');

  it('queues deliveries for an action’s own webhook alone, with no WEBHOOK_URL', async () => {
    const alone = await createTestApp({
      env: {
        DONATION_WEBHOOK_URL: 'https://hooks.example.com/in',
        DONATION_WEBHOOK_SECRET: ACTION_SECRET,
      },
      actions: [DonationModule],
    });
    try {
      expect(alone.get(DELIVERY_QUEUE, { strict: false })).toMatchObject({ durable: false });
    } finally {
      await alone.close();
    }
    const none = await createTestApp({ actions: [DonationModule] });
    try {
      expect(() => none.get<unknown>(DELIVERY_QUEUE, { strict: false })).toThrow();
    } finally {
      await none.close();
    }
  });

  it('refuses a target its rules refuse at boot, naming the action and never the secret', async () => {
    const secret = 'whsec_c2hvcnQ=';
    await expect(
      createTestApp({
        env: {
          DONATION_WEBHOOK_URL: 'https://hooks.example.com/in',
          DONATION_WEBHOOK_SECRET: secret,
        },
        actions: [DonationModule],
      }),
    ).rejects.toThrow(
      /action \/api\/fixture-donation: its webhook target: its secret must be whsec_ followed by the base64 of 24 random bytes or more/,
    );
    const withCredentials = createTestApp({
      env: {
        DONATION_WEBHOOK_URL: 'https://team:hunter2@hooks.example.com/in',
        DONATION_WEBHOOK_SECRET: ACTION_SECRET,
      },
      actions: [DonationModule],
    });
    await expect(withCredentials).rejects.toThrow(
      /its URL \(https:\/\/<credentials>@hooks\.example\.com\/<path>\) must be http\(s\), without credentials/,
    );
    await expect(withCredentials).rejects.not.toThrow(/hunter2/);
  });
});

describeWithRedis()('An action’s own webhook, deliveries queued in Redis (BullMQ)', () => {
  actionWebhookSuite('redis');
});
