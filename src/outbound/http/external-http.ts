import { Injectable } from '@nestjs/common';
import { networkError, readAnswer, refuseRedirect } from './upstream-answer';
import { UpstreamBounds, type UpstreamHeaders } from './upstream-bounds';
import { UpstreamError } from './upstream.error';

export { UpstreamError, type UpstreamErrorKind } from './upstream.error';

export interface FetchJsonOptions {
  /** The whole call, answer body included, is aborted after this many milliseconds. */
  timeoutMs: number;
  /** The caller's own cancellation; its reason is rethrown as is, not as an UpstreamError. */
  signal?: AbortSignal;
  /** Larger answers are refused as malformed, so a faulty upstream cannot exhaust memory. */
  maxBytes?: number;
  /** Sent along (UpstreamBounds gives the request's `x-request-id`). */
  headers?: UpstreamHeaders;
}

export interface GetJsonOptions extends Partial<Omit<FetchJsonOptions, 'headers'>> {
  /** The configuration key naming the API (`weather_geocoding`): its metrics label, never its URL. */
  upstream?: string;
}

const DEFAULT_MAX_BYTES = 1_048_576;

/**
 * GET a JSON document with a real abort on timeout: the socket is closed, so a slow upstream
 * costs nothing once the caller has been answered (a Promise.race would leave it running).
 * Redirects are refused, never followed.
 */
export async function fetchJson(
  url: string | URL,
  { timeoutMs, signal, maxBytes = DEFAULT_MAX_BYTES, headers = {} }: FetchJsonOptions,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
  try {
    const response = await fetch(url, {
      signal: combined,
      headers: { ...headers, accept: 'application/json' },
      redirect: 'manual',
    });
    await refuseRedirect(response);
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new UpstreamError(
        'status',
        `Upstream answered HTTP ${response.status}`,
        response.status,
      );
    }
    return parseJson((await readAnswer(response, maxBytes)).toString('utf8'));
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    if (signal && combined.aborted && combined.reason === signal.reason) throw signal.reason;
    if (timeout.aborted) {
      throw new UpstreamError('timeout', `Upstream did not answer within ${timeoutMs} ms`);
    }
    throw networkError(error);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError('malformed', 'Upstream answer is not valid JSON');
  }
}

/**
 * `fetchJson` within the per-host bounds (UpstreamBounds) and the service's EXTERNAL_TIMEOUT_MS,
 * which covers the wait for a slot too; injectable so services can be tested with a fake.
 * A saturated or failing host is refused without a call (UpstreamRefusal, a 503).
 */
@Injectable()
export class ExternalHttp {
  constructor(private readonly bounds: UpstreamBounds) {}

  /**
   * GETs a JSON document within the host's bounds and EXTERNAL_TIMEOUT_MS (or `timeoutMs`). Throws
   * UpstreamError when the call fails and UpstreamRefusal (a 503) when the host is saturated or its
   * circuit is open; `upstream` names the API in metrics.
   */
  getJson(url: string | URL, options: GetJsonOptions = {}): Promise<unknown> {
    const { signal, upstream, maxBytes } = options;
    const timeoutMs = options.timeoutMs ?? this.bounds.config.timeoutMs;
    return this.bounds.call(url, { timeoutMs, signal, upstream }, (inner, headers) =>
      fetchJson(url, { maxBytes, timeoutMs, signal: inner, headers }),
    );
  }
}
