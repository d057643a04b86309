import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../src/kit';
import { OUTCOME_SINK, type OutcomeSink } from '../../src/outcomes/outcome.types';
import { createTestApp } from '../support/app.factory';
import { describeWithPythonWebhooks, verifyInPython } from '../support/python-webhooks.helper';
import {
  outcomeOf,
  type ReceivedWebhook,
  TEST_WEBHOOK_SECRET as SECRET,
  WebhookReceiver,
} from '../support/webhook.receiver';

const ID = 'intentStandard.confirmed';

/** The three headers of the scheme, as a receiver hands them to a library. */
function schemeHeaders({ headers }: ReceivedWebhook): Record<string, string> {
  return {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  };
}

/**
 * Issue 43, part 3: a delivery the service made to a loopback receiver is a Standard Webhooks
 * delivery, which the scheme's own libraries verify with the secret alone, in TypeScript and in
 * Python, and which verifyWebhook refuses once tampered with, under another secret or late.
 */
describe('Webhooks in the Standard Webhooks scheme', () => {
  let receiver: WebhookReceiver;
  let app: NestFastifyApplication;
  /** The delivery as the receiver got it: headers and raw body. */
  let delivered: ReceivedWebhook;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    app = await createTestApp({ env: { WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET } });
    await app.get<OutcomeSink>(OUTCOME_SINK).deliver(outcomeOf('intentStandard'));
    await receiver.until(() => receiver.of(ID).some((request) => request.answered === 200));
    delivered = receiver.of(ID)[0];
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it("sends the scheme's headers, and none of the old X-Webhook-* ones", () => {
    const { headers } = delivered;
    expect(headers['webhook-id']).toBe(ID);
    expect(headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(Object.keys(headers).filter((name) => name.startsWith('x-webhook'))).toEqual([]);
  });

  it('is verified by the standardwebhooks npm package alone', () => {
    const event = new Webhook(SECRET).verify(delivered.body, schemeHeaders(delivered));
    expect(event).toEqual(JSON.parse(delivered.body));
    expect(event).toMatchObject({ id: ID, type: 'transaction.confirmed' });
    // And refused by it under another secret: the check is real.
    const other = new Webhook(`whsec_${randomBytes(32).toString('base64')}`);
    expect(() => other.verify(delivered.body, schemeHeaders(delivered))).toThrow(
      'No matching signature found',
    );
  });

  it('is verified by verifyWebhook, which refuses it tampered, under a wrong secret or old', () => {
    const { headers, body } = delivered;
    expect(verifyWebhook({ secret: SECRET, headers, rawBody: body })).toMatchObject({
      ok: true,
      id: ID,
    });

    const tampered = body.replace('"blockNumber":"12"', '"blockNumber":"13"');
    expect(tampered).not.toBe(body);
    expect(verifyWebhook({ secret: SECRET, headers, rawBody: tampered })).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });

    const wrong = `whsec_${randomBytes(32).toString('base64')}`;
    expect(verifyWebhook({ secret: wrong, headers, rawBody: body })).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });

    // The same capture replayed 301 s after it was signed: past the 5 minutes.
    const signedAt = Number(headers['webhook-timestamp']) * 1000;
    jest.spyOn(Date, 'now').mockReturnValue(signedAt + 301_000);
    expect(verifyWebhook({ secret: SECRET, headers, rawBody: body })).toMatchObject({
      ok: false,
      reason: 'stale-timestamp',
    });
  });

  describeWithPythonWebhooks()('by the Python standardwebhooks package', () => {
    it('verifies the delivery with the secret alone, and refuses it tampered', () => {
      const verified = verifyInPython(SECRET, schemeHeaders(delivered), delivered.body);
      expect(verified).toEqual({ ok: true, event: JSON.parse(delivered.body) });
      const tampered = delivered.body.replace('"blockNumber":"12"', '"blockNumber":"13"');
      expect(verifyInPython(SECRET, schemeHeaders(delivered), tampered)).toMatchObject({
        ok: false,
      });
    });
  });
});
