import {
  type CallHandler,
  type ExecutionContext,
  HttpStatus,
  Injectable,
  type NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Observable, tap } from 'rxjs';
import { ActionException } from '../../../kit';
import { NftStreams } from './nft-streams';

/**
 * Seconds a refused client is told to wait: a slot frees as soon as any open stream ends, and a
 * refusal costs the service nothing, so a short wait serves the client best.
 */
const RETRY_AFTER_S = 1;

/**
 * Runs `GET /nft/<id>` inside a stream slot (NftStreams): the handler opens its file only once
 * the answers ahead on its connection are done, and not at all past NFT_FILES_MAX_STREAMS,
 * answered 503 `SERVICE_UNAVAILABLE` with Retry-After. Inside the file interceptor, so a
 * stream it closes for a 304 gives its slot back too.
 */
@Injectable()
export class NftStreamsInterceptor implements NestInterceptor {
  constructor(private readonly streams: NftStreams) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const slot = await this.streams.take(http.getRequest<FastifyRequest>().raw.socket);
    if (!slot) {
      void http.getResponse<FastifyReply>().header('retry-after', String(RETRY_AFTER_S));
      throw new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Too many files being sent', {
        message: 'Too many files are being sent, please try again shortly',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    return next.handle().pipe(
      tap({
        next: (answer: unknown) =>
          answer instanceof StreamableFile ? slot.hold(answer.getStream()) : slot.release(),
        error: () => slot.release(),
      }),
    );
  }
}
