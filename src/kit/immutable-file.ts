import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { map, type Observable } from 'rxjs';

const IMMUTABLE_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
};

export interface FileAnswerOptions {
  /** Content-Length; a buffer's own length when the body is one. */
  length?: number;
  /** A strong validator (`"<hash>"`): a request whose If-None-Match names it gets a 304. */
  etag?: string;
  /**
   * Milliseconds the answer may send nothing (the client stopped reading) before the connection
   * is cut: a stalled reader then holds its socket and one chunk for that long, not for good.
   */
  sendTimeoutMs?: number;
}

class ImmutableFile extends StreamableFile {
  readonly answer: FileAnswerOptions;

  constructor(body: Uint8Array | Readable, contentType: string, answer: FileAnswerOptions) {
    const length = answer.length ?? (body instanceof Uint8Array ? body.length : undefined);
    // StreamableFile tells a buffer from a stream itself; the cast only picks an overload.
    super(body as Readable, { type: contentType, length });
    this.answer = answer;
  }
}

/** If-None-Match (a list, weak or strong, or `*`) against a strong ETag, compared weakly. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * Set once the file is found, not before the handler runs as `@Header()` would: a 404 must not
 * be cached for a year. Answers 304 to a request that has the file already, and arms the send
 * timeout of a file answered in full.
 */
@Injectable()
class ImmutableHeaders implements NestInterceptor {
  constructor(private readonly headers: Record<string, string>) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const { headers } = http.getRequest<FastifyRequest>();
    return next.handle().pipe(
      map((result: unknown) => {
        void reply.headers(this.headers);
        if (!(result instanceof ImmutableFile)) return result;
        const { etag, sendTimeoutMs } = result.answer;
        if (etag) {
          void reply.header('etag', etag);
          if (matches(headers['if-none-match'], etag)) {
            result.getStream().destroy();
            void reply.status(304);
            return undefined;
          }
        }
        if (sendTimeoutMs) reply.raw.setTimeout(sendTimeoutMs, () => reply.raw.destroy());
        return result;
      }),
    );
  }
}

/**
 * For routes serving content whose URL changes with it (a hash in the name or the id): caches
 * may keep a found answer for good. `extra` adds headers, such as a policy for SVGs.
 */
export function ServesImmutableFiles(
  extra: Record<string, string> = {},
): ClassDecorator & MethodDecorator {
  return UseInterceptors(new ImmutableHeaders({ ...IMMUTABLE_HEADERS, ...extra }));
}

/**
 * A file answered with its content type and length: bytes as they are, or a stream sent as the
 * client reads it (backpressure: never more than a chunk ahead of the socket).
 */
export function fileAnswer(
  body: Uint8Array | Readable,
  contentType: string,
  options: FileAnswerOptions = {},
): StreamableFile {
  return new ImmutableFile(body, contentType, options);
}
