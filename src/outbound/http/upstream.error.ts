export type UpstreamErrorKind = 'timeout' | 'status' | 'malformed' | 'network' | 'redirect';

/**
 * A failed call to an external API. The message is safe to log anywhere: it never holds the URL
 * (which may carry keys or internal hosts), only what went wrong.
 */
export class UpstreamError extends Error {
  /** So a log line names this error, not a bare Error. */
  override readonly name = 'UpstreamError';

  constructor(
    /**
     * What went wrong, for the caller's decision (a timeout may deserve a different message than a
     * 404) and the metrics' label.
     */
    readonly kind: UpstreamErrorKind,
    message: string,
    /** The upstream's HTTP status, for `status` and `redirect` failures. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * An answer over the caller's byte cap (MAX_ANSWER_BYTES for RPC nodes): still `malformed` for the
 * metrics and the circuit, but its own class, so a reader that can ask for less (the chain
 * follower's pages) tells it from a broken answer.
 */
export class AnswerTooLargeError extends UpstreamError {
  constructor(readonly maxBytes: number) {
    super('malformed', `Upstream answer exceeds ${maxBytes} bytes`);
  }
}

/** Whether `error` or one of its causes is an AnswerTooLargeError (viem wraps it in its own). */
export function isAnswerTooLarge(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 10; depth++) {
    if (e instanceof AnswerTooLargeError) return true;
    e = e.cause;
  }
  return false;
}

/** Answers by which a host says it is down or overloaded, as opposed to refusing one request. */
const HOST_DOWN_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** An HTTP status that counts against the host's circuit. */
export const isHostDownStatus = (status: number): boolean => HOST_DOWN_STATUSES.has(status);

/**
 * Whether a failure says the host itself is unwell (it counts towards opening its circuit): no
 * answer in time, no connection, or a gateway/overload status. An answer the host gave to this
 * request (a 404, a 500 about its input, a malformed body, a redirect) says nothing of the host,
 * and counting it would let one user's input open the circuit for everyone.
 */
export function isHostFailure(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  if (error.kind === 'timeout' || error.kind === 'network') return true;
  return error.kind === 'status' && error.status !== undefined && isHostDownStatus(error.status);
}
