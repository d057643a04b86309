import { Inject, Injectable } from '@nestjs/common';
import { EXTERNAL_CONFIG, type ExternalConfig } from '../../config/external.config';

export type UpstreamErrorKind = 'timeout' | 'status' | 'malformed' | 'network';

/**
 * A failed call to an external API. The message is safe to log anywhere: it never holds the URL
 * (which may carry keys or internal hosts), only what went wrong.
 */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';

  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    /** The upstream's HTTP status, for `status` failures. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface FetchJsonOptions {
  /** The whole call, answer body included, is aborted after this many milliseconds. */
  timeoutMs: number;
  /** The caller's own cancellation; its reason is rethrown as is, not as an UpstreamError. */
  signal?: AbortSignal;
  /** Larger answers are refused as malformed, so a faulty upstream cannot exhaust memory. */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 1_048_576;

/**
 * GET a JSON document with a real abort on timeout: the socket is closed, so a slow upstream
 * costs nothing once the caller has been answered (a Promise.race would leave it running).
 */
export async function fetchJson(
  url: string | URL,
  { timeoutMs, signal, maxBytes = DEFAULT_MAX_BYTES }: FetchJsonOptions,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
  try {
    const response = await fetch(url, {
      signal: combined,
      headers: { accept: 'application/json' },
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new UpstreamError(
        'status',
        `Upstream answered HTTP ${response.status}`,
        response.status,
      );
    }
    return parseJson(await readText(response, maxBytes));
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    if (signal && combined.aborted && combined.reason === signal.reason) throw signal.reason;
    if (timeout.aborted) {
      throw new UpstreamError('timeout', `Upstream did not answer within ${timeoutMs} ms`);
    }
    throw new UpstreamError('network', `Upstream unreachable${networkCode(error)}`);
  }
}

async function readText(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = (): UpstreamError =>
    new UpstreamError('malformed', `Upstream answer exceeds ${maxBytes} bytes`);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError('malformed', 'Upstream answer is not valid JSON');
  }
}

/** The system error code (ECONNREFUSED, ENOTFOUND…) helps operators; the cause's text may name the host. */
function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = cause?.code;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? ` (${code})` : '';
}

/** `fetchJson` with the service's EXTERNAL_TIMEOUT_MS, injectable so services can be tested with a fake. */
@Injectable()
export class ExternalHttp {
  constructor(@Inject(EXTERNAL_CONFIG) private readonly config: ExternalConfig) {}

  getJson(url: string | URL, options: Partial<FetchJsonOptions> = {}): Promise<unknown> {
    return fetchJson(url, { ...options, timeoutMs: options.timeoutMs ?? this.config.timeoutMs });
  }
}
