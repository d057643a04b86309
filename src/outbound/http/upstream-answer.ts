import { AnswerTooLargeError, UpstreamError } from './upstream.error';

/**
 * A redirect is refused, never followed: followed, it would send the call (and whatever the URL
 * carries) to a host nobody configured.
 */
export async function refuseRedirect(response: Response): Promise<void> {
  if (response.status < 300 || response.status >= 400) return;
  await response.body?.cancel().catch(() => undefined);
  throw new UpstreamError(
    'redirect',
    `Upstream answered HTTP ${response.status}, a redirect, which is not followed`,
    response.status,
  );
}

/** Reads a whole answer; one larger than `maxBytes`, declared or streamed, is refused as malformed. */
export async function readAnswer(response: Response, maxBytes: number): Promise<Buffer> {
  const tooLarge = (): UpstreamError => new AnswerTooLargeError(maxBytes);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
  if (!reader) return Buffer.alloc(0);
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
  return Buffer.concat(chunks);
}

/** The system error code (ECONNREFUSED, ENOTFOUND…) helps operators; the cause's text may name the host. */
export function networkError(error: unknown): UpstreamError {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = cause?.code;
  const shown = typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? ` (${code})` : '';
  return new UpstreamError('network', `Upstream unreachable${shown}`);
}
