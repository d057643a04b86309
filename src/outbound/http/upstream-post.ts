import { STATUS_CODES } from 'node:http';
import type * as Undici from 'undici';
import type { Pool } from 'undici';
import { networkError } from './upstream-answer';
import { AnswerTooLargeError, UpstreamError } from './upstream.error';

/** An upstream's answer to a POST, read whole: its status and its text. */
export class PostAnswer {
  constructor(
    readonly status: number,
    /** The answer's `content-type`, if it named one. */
    readonly contentType: string | undefined,
    readonly text: string,
  ) {}

  /** A 2xx, as `Response.ok`. */
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** The status's reason phrase (HTTP/1.1 answers carry one; Node's table names it). */
  get statusText(): string {
    return STATUS_CODES[this.status] ?? '';
  }
}

/**
 * POSTs a JSON body to one fixed URL within its host's bounds (UpstreamBounds.rpcPost) and reads
 * the answer whole: what RpcBatch sends each batch with.
 */
export type RpcPost = (body: string) => Promise<PostAnswer>;

/** The URL to call, without credentials, and the Authorization header they make (as viem does). */
export function splitCredentials(url: string): { url: URL; headers: Record<string, string> } {
  const parsed = new URL(url);
  if (!parsed.username) return { url: parsed, headers: {} };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return {
    url: parsed,
    headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
  };
}

/**
 * A keep-alive connection pool to one origin, for RpcPost. undici's `Pool.request` is the HTTP
 * client Node's own `fetch` is built on, without fetch's WHATWG layers (Request, Headers,
 * Response, web streams): on the bench's checked send-token those cost about as much server CPU
 * as the rest of the check (docs/performance.md). It publishes the same diagnostics channels, so
 * the tracing instrumentation gives each request its HTTP span and `traceparent` as for fetch.
 */
export function upstreamPool(origin: string, connections: number): Pool {
  // A require, not an import: undici loads with the first pool (the first check a transaction
  // action asks of a node), not in every boot, where it took about 100 ms (docs/performance.md).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const undici = require('undici') as typeof Undici;
  return new undici.Pool(origin, { connections });
}

/**
 * One POST through `pool`: a redirect is refused, never followed; an answer larger than
 * `maxBytes` (declared or streamed) is refused as malformed; a failed connection or a cut answer
 * is an UpstreamError `network` naming the system error code, never the host.
 */
export async function postOnce(
  pool: Pool,
  path: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  maxBytes: number,
): Promise<PostAnswer> {
  let answer: Awaited<ReturnType<Pool['request']>>;
  try {
    answer = await pool.request({ path, method: 'POST', body, headers, signal });
  } catch (error) {
    throw signal.aborted ? error : asNetworkError(error);
  }
  const { statusCode, headers: answerHeaders, body: stream } = answer;
  if (statusCode >= 300 && statusCode < 400) {
    stream.destroy();
    throw new UpstreamError(
      'redirect',
      `Upstream answered HTTP ${statusCode}, a redirect, which is not followed`,
      statusCode,
    );
  }
  const tooLarge = (): UpstreamError => new AnswerTooLargeError(maxBytes);
  if (Number(answerHeaders['content-length']) > maxBytes) {
    stream.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        stream.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw error instanceof UpstreamError || signal.aborted ? error : asNetworkError(error);
  }
  const type = answerHeaders['content-type'];
  const text = chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString();
  return new PostAnswer(statusCode, Array.isArray(type) ? type[0] : type, text);
}

/** undici's errors carry the system code themselves (ECONNREFUSED), fetch's on their cause. */
function asNetworkError(error: unknown): UpstreamError {
  const failed = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  return networkError({ cause: { code: failed?.code ?? failed?.cause?.code } });
}
