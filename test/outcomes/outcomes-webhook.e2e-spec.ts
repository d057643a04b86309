import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Address, type HDAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { verifyWebhook } from '../../src/kit';
import { WEBHOOK_HEADERS } from '../../src/kit/webhook-signature';
import { createTestApp } from '../support/app.factory';
import { signAndSend, startTestChain, type TestChain } from '../../src/testing';
import {
  heard,
  heardCount,
  readIntent,
  reportHash,
  SendTokenWithHookModule,
  sendTokenIntent,
} from '../support/outcomes.helper';
import {
  type ReceivedWebhook,
  TEST_WEBHOOK_SECRET as SECRET,
  WebhookReceiver,
} from '../support/webhook.receiver';

const FUJI = 43113;

/**
 * The whole path of issue 20 on a local chain, with nothing stood in for: send-token answered,
 * signed and sent by the test, its hash reported, the watcher confirming it from the chain, the
 * team's hook told once and a signed webhook delivered once, after a first attempt answered 500.
 */
describe('Transaction outcomes, from the answer to the webhook', () => {
  let testChain: TestChain;
  let user: HDAccount;
  let receiver: WebhookReceiver;
  let app: NestFastifyApplication;
  /** The accepted attempt of the first test's delivery, as the receiver captured it. */
  let delivered: ReceivedWebhook | undefined;

  beforeAll(async () => {
    testChain = await startTestChain({ chainId: FUJI });
    user = testChain.users[0];
    receiver = await WebhookReceiver.start();
    // The first attempt of every delivery fails; the retry is accepted.
    receiver.answer = (nth) => (nth === 1 ? 500 : 200);
    app = await createTestApp({
      env: {
        ...testChain.env,
        OUTCOME_POLL_MS: '50',
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: SECRET,
        WEBHOOK_BACKOFF_MS: '20',
      },
      actions: [SendTokenWithHookModule],
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await testChain?.stop();
  });

  it('confirms a reported send, tells the hook once and delivers one signed webhook after a 500', async () => {
    const to: Address = privateKeyToAccount(generatePrivateKey()).address;
    const { intent, body } = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: to, amount: '0.25' },
      user.address,
    );
    const { receipt } = await signAndSend(
      testChain.chain,
      user,
      body.serializedTransaction as string,
    );
    expect(receipt.status).toBe('success');

    expect((await reportHash(app, intent, receipt.transactionHash)).status).toBe(200);
    await heard(intent, 'confirmed');
    const read = await readIntent(app, intent);
    expect(read.body.data).toMatchObject({
      status: 'confirmed',
      hash: receipt.transactionHash,
      blockNumber: receipt.blockNumber.toString(),
    });

    const id = `${intent}.confirmed`;
    await receiver.until(() => receiver.of(id).some((request) => request.answered === 200));
    const attempts = receiver.of(id);
    expect(attempts.map((request) => request.answered)).toEqual([500, 200]);
    for (const attempt of attempts) {
      const verified = verifyWebhook({
        secret: SECRET,
        headers: attempt.headers,
        rawBody: attempt.body,
      });
      expect(verified).toMatchObject({ ok: true, id });
    }
    expect(JSON.parse(attempts[1].body)).toEqual({
      id,
      type: 'transaction.confirmed',
      intent,
      action: '/api/send-token',
      chainId: FUJI,
      user: user.address,
      hash: receipt.transactionHash,
      blockNumber: receipt.blockNumber.toString(),
      occurredAt: expect.any(String),
    });

    // Reported again: nothing settles twice, the hook is not told again, no second delivery.
    expect((await reportHash(app, intent, receipt.transactionHash)).status).toBe(200);
    expect(heardCount(intent)).toBe(1);
    expect(receiver.received.filter((r) => r.headers[WEBHOOK_HEADERS.id] === id)).toHaveLength(2);
    delivered = attempts[1];
  });

  it('refuses the captured delivery replayed under a new id, with a doubled id or with none', async () => {
    expect(delivered).toBeDefined();
    const captured = delivered!;
    const id = String(captured.headers[WEBHOOK_HEADERS.id]);
    const verify = (headers: ReceivedWebhook['headers'], body = captured.body): unknown =>
      verifyWebhook({ secret: SECRET, headers, rawBody: body });
    // Sent again as it was, it still verifies: recognising it is the id's job, hence signing it.
    const same = await receiver.replay(captured, {});
    expect(verify(same.headers)).toMatchObject({ ok: true, id });

    // Under a fresh id a receiver has not seen: it would pass its deduplication, so it must fail here.
    const renamed = await receiver.replay(captured, { [WEBHOOK_HEADERS.id]: `${id}-again` });
    expect(renamed.headers[WEBHOOK_HEADERS.id]).toBe(`${id}-again`);
    expect(verify(renamed.headers)).toMatchObject({ ok: false, reason: 'bad-signature' });
    // With the body's id changed to match: the body is signed too.
    const rewritten = captured.body.replace(`"id":"${id}"`, `"id":"${id}-again"`);
    expect(rewritten).not.toBe(captured.body);
    expect(verify(renamed.headers, rewritten)).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });

    // Two webhook-id lines on the wire, the signed one first: Node joins them with ", ".
    const doubled = await receiver.replay(captured, { [WEBHOOK_HEADERS.id]: [id, `${id}-again`] });
    expect(doubled.headers[WEBHOOK_HEADERS.id]).toBe(`${id}, ${id}-again`);
    expect(verify(doubled.headers)).toMatchObject({ ok: false, reason: 'malformed-header' });
    expect(verify({ ...captured.headers, [WEBHOOK_HEADERS.id]: [id, id] })).toMatchObject({
      ok: false,
      reason: 'malformed-header',
    });

    const anonymous = await receiver.replay(captured, { [WEBHOOK_HEADERS.id]: undefined });
    expect(anonymous.headers[WEBHOOK_HEADERS.id]).toBeUndefined();
    expect(verify(anonymous.headers)).toMatchObject({ ok: false, reason: 'missing-header' });
  });
});
