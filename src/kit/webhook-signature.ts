import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed webhooks (docs/webhooks.md): how the service signs what it POSTs, and what a team's own
 * service calls to check it. The signature is an HMAC-SHA256, keyed with WEBHOOK_SECRET, of
 * `<X-Webhook-Id>.<X-Webhook-Timestamp>.<raw body>`: the timestamp is signed so a captured
 * delivery cannot be replayed later with a fresh one, and the id is signed because receivers
 * deduplicate on it, so a captured delivery cannot be replayed under a new id either.
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

/** `transaction.<event>`, one per OutcomeEvent of the outcomes layer (above the kit). */
export type WebhookEventType =
  | 'transaction.confirmed'
  | 'transaction.reverted'
  | 'transaction.replaced'
  | 'transaction.expired'
  | 'transaction.unchecked'
  | 'transaction.reorged';

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

/**
 * What an id may be: one token of visible ASCII without a comma, so two `X-Webhook-Id` headers
 * (joined with ", " by Node and by fetch's Headers) can never pass for one id. The service's ids
 * (`<intent>.<status>`, the intent base64url) are far inside it.
 */
const ID_SYNTAX = /^[\x21-\x2b\x2d-\x7e]{1,256}$/;

/** `sha256=<hex HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`. */
export function signWebhook(
  secret: string,
  id: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): string {
  const hmac = createHmac('sha256', secret).update(`${id}.${timestamp}.`).update(rawBody);
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
  // Every key in any case: { 'X-Webhook-Id': a, 'x-webhook-id': b } is the header twice.
  const values = Object.keys(headers)
    .filter((candidate) => candidate.toLowerCase() === name)
    .flatMap((key) => headers[key] ?? []);
  // Several values for one header is not what the service sends: joined as Node joins them, so
  // the syntax checks below refuse them as malformed rather than pick one.
  return values.length === 0 ? undefined : values.join(', ');
}

const refuse = (reason: WebhookRefusal, message: string): WebhookVerification => ({
  ok: false,
  reason,
  message,
});

/**
 * Checks a delivery in a team's own service: the three headers present, once each; the signature
 * over id, timestamp and body (constant-time, against each secret given); the timestamp within
 * `toleranceSeconds` of now; the body JSON naming the same id. Refusals are returned, never
 * thrown, each with a reason to log; only an `ok` result carries the parsed event.
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
  if (!ID_SYNTAX.test(id))
    return refuse('malformed-header', `${WEBHOOK_HEADERS.id} is not one id (one header, no comma)`);
  const timestamp = Number(stamp);
  const givenBytes = Buffer.from(given[1], 'hex');
  const expected = (key: string): Buffer =>
    Buffer.from(signWebhook(key, id, timestamp, rawBody).slice('sha256='.length), 'hex');
  const matches = (typeof secret === 'string' ? [secret] : secret).some((key) =>
    timingSafeEqual(givenBytes, expected(key)),
  );
  if (!matches)
    return refuse('bad-signature', 'The signature does not match the id, timestamp and body');
  const skew = timestamp - Math.floor(now / 1000);
  if (skew < -toleranceSeconds)
    return refuse('stale-timestamp', `Signed ${-skew} s ago, more than ${toleranceSeconds} s`);
  if (skew > toleranceSeconds)
    return refuse(
      'future-timestamp',
      `Signed ${skew} s ahead of this clock, more than ${toleranceSeconds} s`,
    );
  let event: unknown;
  try {
    const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
    event = JSON.parse(text);
  } catch {
    return refuse('malformed-body', 'The body is not JSON');
  }
  // The service sends the id in both: a receiver keying on either one gets the signed header's.
  if (typeof event !== 'object' || event === null || (event as { id?: unknown }).id !== id)
    return refuse('malformed-body', `The body's id is not the ${WEBHOOK_HEADERS.id} header`);
  return { ok: true, id, timestamp, event: event as WebhookEvent };
}
