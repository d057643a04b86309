import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhook, type WebhookEvent } from './webhook-signature';

const secret = 'a-secret-of-at-least-thirty-two-characters';
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

function signed(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const headers: Record<string, string | undefined> = {
    'x-webhook-id': event.id,
    'x-webhook-timestamp': String(timestamp),
    'x-webhook-signature': signWebhook(secret, event.id, timestamp, rawBody),
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

describe('signWebhook', () => {
  it('is the hex HMAC-SHA256 of "<id>.<timestamp>.<raw body>", for strings and bytes alike', () => {
    const expected = createHmac('sha256', secret)
      .update(`${event.id}.${timestamp}.${rawBody}`)
      .digest('hex');
    expect(signWebhook(secret, event.id, timestamp, rawBody)).toBe(`sha256=${expected}`);
    expect(signWebhook(secret, event.id, timestamp, Buffer.from(rawBody))).toBe(
      `sha256=${expected}`,
    );
  });
});

describe('verifyWebhook', () => {
  it('accepts an authentic, fresh delivery and gives its event', () => {
    const result = verifyWebhook({ secret, headers: signed(), rawBody, now });
    expect(result).toEqual({ ok: true, id: event.id, timestamp, event });
  });

  it('reads fetch Headers and any header case, and a Buffer body', () => {
    const headers = new Headers(signed());
    expect(verifyWebhook({ secret, headers, rawBody: Buffer.from(rawBody), now }).ok).toBe(true);
    const upper = Object.fromEntries(
      Object.entries(signed()).map(([k, v]) => [k.toUpperCase(), v]),
    );
    expect(verifyWebhook({ secret, headers: upper, rawBody, now }).ok).toBe(true);
  });

  it('accepts any of several secrets (rotation)', () => {
    const result = verifyWebhook({
      secret: ['old-secret', secret],
      headers: signed(),
      rawBody,
      now,
    });
    expect(result.ok).toBe(true);
  });

  it.each([
    ['a changed body', { rawBody: rawBody.replace('"12"', '"13"') }],
    ['another secret', { secret: 'another-secret-of-thirty-two-characters!' }],
    ['a changed timestamp', { headers: signed({ 'x-webhook-timestamp': String(timestamp + 1) }) }],
    // The replay receivers would not deduplicate: a captured delivery under a new id.
    ['a changed id', { headers: signed({ 'x-webhook-id': 'intent2.confirmed' }) }],
  ])('refuses %s as bad-signature', (_what, change) => {
    const result = verifyWebhook({ secret, headers: signed(), rawBody, now, ...change });
    expect(result).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses an old-scheme signature, which did not cover the id', () => {
    const hmac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
    const headers = signed({ 'x-webhook-signature': `sha256=${hmac}` });
    const result = verifyWebhook({ secret, headers, rawBody, now });
    expect(result).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it.each([
    ['an array of two values', [event.id, 'intent2.confirmed']],
    ['an array of the same value twice', [event.id, event.id]],
    ['two values joined by a comma (as Node joins them)', `${event.id}, intent2.confirmed`],
    ['two values joined without a space', `${event.id},${event.id}`],
  ])('refuses a doubled id header, %s, as malformed', (_what, value) => {
    const headers = { ...signed(), 'x-webhook-id': value };
    const result = verifyWebhook({ secret, headers, rawBody, now });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-header' });
  });

  it('refuses the id header given twice under two spellings, or twice in fetch Headers', () => {
    const spelled = { ...signed(), 'X-Webhook-Id': event.id };
    expect(verifyWebhook({ secret, headers: spelled, rawBody, now })).toMatchObject({
      ok: false,
      reason: 'malformed-header',
    });
    const fetched = new Headers(signed());
    fetched.append('x-webhook-id', 'intent2.confirmed');
    expect(verifyWebhook({ secret, headers: fetched, rawBody, now })).toMatchObject({
      ok: false,
      reason: 'malformed-header',
    });
  });

  it('accepts an id given as an array of one value (headersDistinct)', () => {
    const headers = { ...signed(), 'x-webhook-id': [event.id] };
    expect(verifyWebhook({ secret, headers, rawBody, now }).ok).toBe(true);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
  ])('refuses an id header %s as missing', (_what, value) => {
    const result = verifyWebhook({
      secret,
      headers: signed({ 'x-webhook-id': value }),
      rawBody,
      now,
    });
    expect(result).toEqual({
      ok: false,
      reason: 'missing-header',
      message: 'Missing x-webhook-id',
    });
  });

  it('refuses a signed body whose id is not the header', () => {
    const other = JSON.stringify({ ...event, id: 'intent2.confirmed' });
    const headers = signed({
      'x-webhook-signature': signWebhook(secret, event.id, timestamp, other),
    });
    const result = verifyWebhook({ secret, headers, rawBody: other, now });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-body' });
  });

  it('refuses a timestamp outside the window, either way', () => {
    const at = (seconds: number): string | undefined => {
      const headers = signed({
        'x-webhook-timestamp': String(seconds),
        'x-webhook-signature': signWebhook(secret, event.id, seconds, rawBody),
      });
      const result = verifyWebhook({ secret, headers, rawBody, now, toleranceSeconds: 60 });
      return result.ok ? 'ok' : result.reason;
    };
    expect(at(timestamp - 60)).toBe('ok');
    expect(at(timestamp + 60)).toBe('ok');
    expect(at(timestamp - 61)).toBe('stale-timestamp');
    expect(at(timestamp + 61)).toBe('future-timestamp');
  });

  it('names the missing headers', () => {
    const result = verifyWebhook({
      secret,
      headers: signed({ 'x-webhook-id': undefined, 'x-webhook-signature': undefined }),
      rawBody,
      now,
    });
    expect(result).toEqual({
      ok: false,
      reason: 'missing-header',
      message: 'Missing x-webhook-id, x-webhook-signature',
    });
  });

  it.each([
    ['x-webhook-timestamp', 'yesterday'],
    ['x-webhook-signature', 'sha1=abc'],
    ['x-webhook-signature', `sha256=${'zz'.repeat(32)}`],
  ])('refuses %s=%s as malformed', (name, value) => {
    const result = verifyWebhook({ secret, headers: signed({ [name]: value }), rawBody, now });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-header' });
  });

  it('refuses a signed body that is not JSON', () => {
    const body = 'not json';
    const headers = signed({
      'x-webhook-signature': signWebhook(secret, event.id, timestamp, body),
    });
    const result = verifyWebhook({ secret, headers, rawBody: body, now });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-body' });
  });
});
