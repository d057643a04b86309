import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, type WebhookEvent } from './webhook-signature';

const whsec = (key: Buffer): string => `whsec_${key.toString('base64')}`;
const secret = whsec(randomBytes(32));
const event: WebhookEvent = {
  id: 'intent1.confirmed',
  type: 'transaction.confirmed',
  intent: 'intent1',
  action: '/api/send-token',
  chainId: 31337,
  user: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  hash: `0x${'ab'.repeat(32)}`,
  blockNumber: '12',
  occurredAt: '2026-01-01T00:00:00.000Z',
};
const rawBody = JSON.stringify(event);
const now = 1_767_225_600_000;
const timestamp = now / 1000;

/** What the service sends: the library's signature of id, timestamp (seconds) and body. */
const sign = (seconds: number, body = rawBody, key = secret): string =>
  new Webhook(key).sign(event.id, new Date(seconds * 1000), body);

function signed(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const headers: Record<string, string | undefined> = {
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(timestamp),
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

// The library reads the clock itself: the receiver's clock is set, not passed.
beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(now));
afterEach(() => jest.restoreAllMocks());

describe('the signature the library makes (docs/webhooks.md)', () => {
  it('is v1, and the base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>", keyed with the decoded secret', () => {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const hmac = createHmac('sha256', key).update(`${event.id}.${timestamp}.${rawBody}`);
    expect(sign(timestamp)).toBe(`v1,${hmac.digest('base64')}`);
  });
});

describe('verifyWebhook', () => {
  it('accepts an authentic, fresh delivery and gives its event', () => {
    const result = verifyWebhook({ secret, headers: signed(), rawBody });
    expect(result).toEqual({ ok: true, id: event.id, timestamp, event });
  });

  it('reads fetch Headers and any header case, and a Buffer or Uint8Array body', () => {
    const headers = new Headers(signed());
    expect(verifyWebhook({ secret, headers, rawBody: Buffer.from(rawBody) }).ok).toBe(true);
    const bytes = new TextEncoder().encode(rawBody);
    expect(verifyWebhook({ secret, headers, rawBody: bytes }).ok).toBe(true);
    const upper = Object.fromEntries(
      Object.entries(signed()).map(([k, v]) => [k.toUpperCase(), v]),
    );
    expect(verifyWebhook({ secret, headers: upper, rawBody }).ok).toBe(true);
  });

  it('accepts any of several secrets (rotation)', () => {
    const old = whsec(randomBytes(32));
    expect(verifyWebhook({ secret: [old, secret], headers: signed(), rawBody }).ok).toBe(true);
  });

  it.each([
    ['a tampered body', { rawBody: rawBody.replace('"12"', '"13"') }],
    ['a wrong secret', { secret: whsec(randomBytes(32)) }],
    ['a changed timestamp', { headers: signed({ 'webhook-timestamp': String(timestamp + 1) }) }],
    // The replay receivers would not deduplicate: a captured delivery under a new id.
    ['a changed id', { headers: signed({ 'webhook-id': 'intent2.confirmed' }) }],
  ])('refuses %s as bad-signature', (_what, change) => {
    const result = verifyWebhook({ secret, headers: signed(), rawBody, ...change });
    expect(result).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it.each([
    ['an array of two values', [event.id, 'intent2.confirmed']],
    ['an array of the same value twice', [event.id, event.id]],
    ['two values joined by a comma (as Node joins them)', `${event.id}, intent2.confirmed`],
    ['two values joined without a space', `${event.id},${event.id}`],
  ])('refuses a doubled id header, %s, as malformed', (_what, value) => {
    const headers = { ...signed(), 'webhook-id': value };
    expect(verifyWebhook({ secret, headers, rawBody })).toMatchObject({
      ok: false,
      reason: 'malformed-header',
    });
  });

  it('refuses the id header given twice under two spellings, or twice in fetch Headers', () => {
    const spelled = { ...signed(), 'Webhook-Id': event.id };
    expect(verifyWebhook({ secret, headers: spelled, rawBody })).toMatchObject({
      ok: false,
      reason: 'malformed-header',
    });
    const fetched = new Headers(signed());
    fetched.append('webhook-id', 'intent2.confirmed');
    expect(verifyWebhook({ secret, headers: fetched, rawBody })).toMatchObject({
      ok: false,
      reason: 'malformed-header',
    });
  });

  it('accepts an id given as an array of one value (headersDistinct)', () => {
    const headers = { ...signed(), 'webhook-id': [event.id] };
    expect(verifyWebhook({ secret, headers, rawBody }).ok).toBe(true);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
  ])('refuses an id header %s as missing', (_what, value) => {
    const result = verifyWebhook({ secret, headers: signed({ 'webhook-id': value }), rawBody });
    expect(result).toEqual({ ok: false, reason: 'missing-header', message: 'Missing webhook-id' });
  });

  it('refuses a signed body whose id is not the header', () => {
    const other = JSON.stringify({ ...event, id: 'intent2.confirmed' });
    const headers = signed({ 'webhook-signature': sign(timestamp, other) });
    const result = verifyWebhook({ secret, headers, rawBody: other });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-body' });
  });

  const at = (seconds: number, toleranceSeconds?: number): string => {
    const headers = signed({
      'webhook-timestamp': String(seconds),
      'webhook-signature': sign(seconds),
    });
    const result = verifyWebhook({ secret, headers, rawBody, toleranceSeconds });
    return result.ok ? 'ok' : result.reason;
  };

  it("refuses an old timestamp, or one ahead, past the library's 5 minutes", () => {
    expect(at(timestamp - 300)).toBe('ok');
    expect(at(timestamp + 300)).toBe('ok');
    expect(at(timestamp - 301)).toBe('stale-timestamp');
    expect(at(timestamp - 86_400)).toBe('stale-timestamp');
    expect(at(timestamp + 301)).toBe('future-timestamp');
  });

  it('narrows the window with toleranceSeconds, and will not widen it', () => {
    expect(at(timestamp - 60, 60)).toBe('ok');
    expect(at(timestamp + 60, 60)).toBe('ok');
    expect(at(timestamp - 61, 60)).toBe('stale-timestamp');
    expect(at(timestamp + 61, 60)).toBe('future-timestamp');
    expect(() => at(timestamp, 301)).toThrow(RangeError);
  });

  it('names the missing headers, the old X-Webhook-* ones not counting', () => {
    const result = verifyWebhook({
      secret,
      headers: {
        ...signed({ 'webhook-id': undefined, 'webhook-signature': undefined }),
        'x-webhook-id': event.id,
        'x-webhook-signature': sign(timestamp),
      },
      rawBody,
    });
    expect(result).toEqual({
      ok: false,
      reason: 'missing-header',
      message: 'Missing webhook-id, webhook-signature',
    });
  });

  it.each([
    ['webhook-timestamp', 'yesterday'],
    ['webhook-signature', 'sha256=abc'],
    ['webhook-signature', 'v1,not base64!'],
  ])('refuses %s=%s as malformed', (name, value) => {
    const result = verifyWebhook({ secret, headers: signed({ [name]: value }), rawBody });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-header' });
  });

  it('refuses a signed body that is not JSON', () => {
    const body = 'not json';
    const headers = signed({ 'webhook-signature': sign(timestamp, body) });
    const result = verifyWebhook({ secret, headers, rawBody: body });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-body' });
  });
});
