import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed webhooks (docs/webhooks.md): how the service signs what it POSTs, and what a team's own
 * service calls to check it. The signature is an HMAC-SHA256, keyed with WEBHOOK_SECRET, of
 * `<X-Webhook-Timestamp>.<raw body>`: the timestamp is signed too, so a captured delivery cannot
 * be replayed later with a fresh one.
 */

/** The headers of a delivery, as Node lowercases them. */
export const WEBHOOK_HEADERS = {
  /** Same on every attempt of one delivery: the receiver's idempotency key. */
  id: 'x-webhook-id',
  /** Unix seconds of this attempt. */
  timestamp: 'x-webhook-timestamp',
  /** `sha256=<hex>`. */
  signature: 'x-webhook-signature',
} as const;

export type WebhookEventType =
  'transaction.confirmed' | 'transaction.reverted' | 'transaction.mismatch' | 'transaction.expired';

/** The JSON body of a delivery. */
export interface WebhookEvent {
  /** The delivery's id, as in `X-Webhook-Id`. */
  id: string;
  type: WebhookEventType;
  /** The intent id (`X-Action-Intent` of the transaction answer). */
  intent: string;
  /** The action's path, e.g. `/api/send-token`. */
  action: string;
  chainId: number;
  /** The user address the action request claimed. */
  user: string;
  /** The reported transaction hash; null when none was reported (`expired`). */
  hash: string | null;
  /** The block that mined it, as a decimal string; null unless mined (`confirmed`, `reverted`). */
  blockNumber: string | null;
  /** When the intent reached this status, ISO 8601. */
  occurredAt: string;
}

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`. */
export function signWebhook(
  secret: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): string {
  const hmac = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody);
  return `sha256=${hmac.digest('hex')}`;
}

export type WebhookRefusal =
  | 'missing-header'
  | 'malformed-header'
  | 'bad-signature'
  | 'stale-timestamp'
  | 'future-timestamp'
  | 'malformed-body';

/** What verifyWebhook found: the event when the delivery is authentic and fresh, else why not. */
export type WebhookVerification =
  | { ok: true; id: string; timestamp: number; event: WebhookEvent }
  | { ok: false; reason: WebhookRefusal; message: string };

export interface VerifyWebhookOptions {
  /** WEBHOOK_SECRET; several while rotating it (any one may have signed). */
  secret: string | readonly string[];
  /** The request's headers: Node's (any case) or a fetch `Headers`. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** How far the timestamp may be from now, either way; 5 minutes by default. */
  toleranceSeconds?: number;
  /** Epoch milliseconds to check against (tests); the clock by default. */
  now?: number;
}

function header(headers: VerifyWebhookOptions['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  // Several values for one header is not what the service sends: refused as malformed below.
  return Array.isArray(value) ? value.join(',') : value;
}

const refuse = (reason: WebhookRefusal, message: string): WebhookVerification => ({
  ok: false,
  reason,
  message,
});

/**
 * Checks a delivery in a team's own service: the signature (constant-time, against each secret
 * given), then that the timestamp is within `toleranceSeconds` of now. Refusals are returned,
 * never thrown, each with a reason to log; only an `ok` result carries the parsed event.
 */
export function verifyWebhook({
  secret,
  headers,
  rawBody,
  toleranceSeconds = 300,
  now = Date.now(),
}: VerifyWebhookOptions): WebhookVerification {
  const missing = Object.values(WEBHOOK_HEADERS).filter((name) => !header(headers, name));
  if (missing.length > 0) return refuse('missing-header', `Missing ${missing.join(', ')}`);
  const id = header(headers, WEBHOOK_HEADERS.id)!;
  const stamp = header(headers, WEBHOOK_HEADERS.timestamp)!;
  const signature = header(headers, WEBHOOK_HEADERS.signature)!;
  if (!/^\d{1,12}$/.test(stamp))
    return refuse('malformed-header', `${WEBHOOK_HEADERS.timestamp} is not unix seconds`);
  const given = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  if (!given) return refuse('malformed-header', `${WEBHOOK_HEADERS.signature} is not sha256=<hex>`);
  const timestamp = Number(stamp);
  const givenBytes = Buffer.from(given[1], 'hex');
  const matches = (typeof secret === 'string' ? [secret] : secret).some((key) =>
    timingSafeEqual(givenBytes, Buffer.from(signWebhook(key, timestamp, rawBody).slice(7), 'hex')),
  );
  if (!matches)
    return refuse('bad-signature', 'The signature does not match the body and timestamp');
  const skew = timestamp - Math.floor(now / 1000);
  if (skew < -toleranceSeconds)
    return refuse('stale-timestamp', `Signed ${-skew} s ago, more than ${toleranceSeconds} s`);
  if (skew > toleranceSeconds)
    return refuse(
      'future-timestamp',
      `Signed ${skew} s ahead of this clock, more than ${toleranceSeconds} s`,
    );
  try {
    const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
    return { ok: true, id, timestamp, event: JSON.parse(text) as WebhookEvent };
  } catch {
    return refuse('malformed-body', 'The body is not JSON');
  }
}
