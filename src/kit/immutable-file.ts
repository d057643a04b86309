import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Observable, tap } from 'rxjs';

const IMMUTABLE_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
};

/**
 * Set once the file is found, not before the handler runs as `@Header()` would: a 404 must not
 * be cached for a year.
 */
@Injectable()
class ImmutableHeaders implements NestInterceptor {
  constructor(private readonly headers: Record<string, string>) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(tap(() => void reply.headers(this.headers)));
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

/** Bytes answered as they are, with their content type and length. */
export function fileAnswer(bytes: Uint8Array, contentType: string): StreamableFile {
  return new StreamableFile(bytes, { type: contentType, length: bytes.length });
}
