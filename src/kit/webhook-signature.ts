import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/**
 * Signed webhooks (docs/webhooks.md), in the Standard Webhooks scheme (standardwebhooks.com) so a
 * receiver verifies them with a library of its own language. The signing and the checks of the
 * signature and of the timestamp are the `standardwebhooks` package's; this file adds what the
 * scheme leaves to each receiver: one id per delivery, refusals with a reason, the body's id.
 */

/** The headers of a delivery, as Node lowercases them: the scheme's names. */
export const WEBHOOK_HEADERS = {
  /** Same on every attempt of one delivery: the receiver's idempotency key. */
  id: 'webhook-id',
  /** Unix seconds of this attempt. */
  timestamp: 'webhook-timestamp',
  /** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`. */
  signature: 'webhook-signature',
} as const;

/**
 * The longest a timestamp may be from the receiver's clock, either way: the library's own window
 * (5 minutes, fixed in it), which verifyWebhook can narrow but not widen.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

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
  /** The delivery's id, as in `webhook-id`. */
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
  /**
   * An action's own webhook only: the answer's `params.args` its declaration names
   * (`webhook.fields`), as the answer showed them.
   */
  fields?: Record<string, unknown>;
}

/**
 * What an id may be: one token of visible ASCII without a comma, so two `webhook-id` headers
 * (joined with ", " by Node and by fetch's Headers) can never pass for one id. The library takes
 * any text, and whichever of two headers came last; the service's ids (`<intent>.<status>`, the
 * intent base64url) are far inside this.
 */
const ID_SYNTAX = /^[\x21-\x2b\x2d-\x7e]{1,256}$/;
/** Space-separated `<version>,<base64>`, as the scheme allows several (a secret being rotated). */
const SIGNATURE_SYNTAX = /^v\w+,[A-Za-z0-9+/]+={0,2}( v\w+,[A-Za-z0-9+/]+={0,2})*$/;

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
  /** WEBHOOK_SECRET (`whsec_<base64>`); several while rotating it (any one may have signed). */
  secret: string | readonly string[];
  /** The request's headers: Node's (any case) or a fetch `Headers`. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** How far the timestamp may be from now, either way; 300 (the library's window) at most. */
  toleranceSeconds?: number;
}

function header(headers: VerifyWebhookOptions['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  // Every key in any case: { 'Webhook-Id': a, 'webhook-id': b } is the header twice.
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

/** The library's refusals that are about the clock, not the signature (its messages, pinned). */
const CLOCK_REFUSALS: Record<string, WebhookRefusal> = {
  'Message timestamp too old': 'stale-timestamp',
  'Message timestamp too new': 'future-timestamp',
};

/** The timestamp against a window narrower than the library's; undefined when inside it. */
function outsideWindow(
  timestamp: number,
  toleranceSeconds: number,
): WebhookVerification | undefined {
  const skew = timestamp - Math.floor(Date.now() / 1000);
  if (skew < -toleranceSeconds)
    return refuse('stale-timestamp', `Signed ${-skew} s ago, more than ${toleranceSeconds} s`);
  if (skew > toleranceSeconds)
    return refuse('future-timestamp', `Signed ${skew} s ahead, more than ${toleranceSeconds} s`);
  return undefined;
}

/**
 * Checks a delivery in a team's own service with the `standardwebhooks` library's
 * `Webhook.verify` (signature, against each secret given, and timestamp within 5 minutes of the
 * clock), after refusing what the library would let through: a header missing or given twice.
 * Then the body's id must be the header's. Refusals are returned, each with a reason to log;
 * it throws only on a secret the library cannot read (configuration, not a delivery).
 */
export function verifyWebhook({
  secret,
  headers,
  rawBody,
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
}: VerifyWebhookOptions): WebhookVerification {
  if (!(toleranceSeconds >= 0 && toleranceSeconds <= WEBHOOK_TOLERANCE_SECONDS))
    throw new RangeError(`toleranceSeconds must be 0 to ${WEBHOOK_TOLERANCE_SECONDS}`);
  const missing = Object.values(WEBHOOK_HEADERS).filter((name) => !header(headers, name));
  if (missing.length > 0) return refuse('missing-header', `Missing ${missing.join(', ')}`);
  const id = header(headers, WEBHOOK_HEADERS.id)!;
  const stamp = header(headers, WEBHOOK_HEADERS.timestamp)!;
  const signature = header(headers, WEBHOOK_HEADERS.signature)!.trim();
  if (!/^\d{1,12}$/.test(stamp))
    return refuse('malformed-header', `${WEBHOOK_HEADERS.timestamp} is not unix seconds`);
  if (!SIGNATURE_SYNTAX.test(signature))
    return refuse('malformed-header', `${WEBHOOK_HEADERS.signature} is not v1,<base64>`);
  if (!ID_SYNTAX.test(id))
    return refuse('malformed-header', `${WEBHOOK_HEADERS.id} is not one id (one header, no comma)`);
  const one = {
    [WEBHOOK_HEADERS.id]: id,
    [WEBHOOK_HEADERS.timestamp]: stamp,
    [WEBHOOK_HEADERS.signature]: signature,
  };
  // The library signs a string or a Buffer (a plain Uint8Array it refuses).
  const payload = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody);
  let event: unknown;
  let verified = false;
  for (const key of typeof secret === 'string' ? [secret] : secret) {
    try {
      event = new Webhook(key).verify(payload, one);
      verified = true;
      break;
    } catch (error) {
      // The signature matched (the library parses the body only then), the JSON did not.
      if (error instanceof SyntaxError) return refuse('malformed-body', 'The body is not JSON');
      if (!(error instanceof WebhookVerificationError)) throw error;
      const clock = CLOCK_REFUSALS[error.message];
      if (clock) return refuse(clock, `${error.message} (${WEBHOOK_TOLERANCE_SECONDS} s window)`);
    }
  }
  if (!verified)
    return refuse('bad-signature', 'The signature does not match the id, timestamp and body');
  const timestamp = Number(stamp);
  const late = outsideWindow(timestamp, toleranceSeconds);
  if (late) return late;
  // The service sends the id in both: a receiver keying on either one gets the signed header's.
  if (typeof event !== 'object' || event === null || (event as { id?: unknown }).id !== id)
    return refuse('malformed-body', `The body's id is not the ${WEBHOOK_HEADERS.id} header`);
  return { ok: true, id, timestamp, event: event as WebhookEvent };
}
