import {
  type CallHandler,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  type NestInterceptor,
  NotFoundException,
  Param,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Observable, tap } from 'rxjs';
import { ContentStore } from './content-store';

/** A stored item never changes (its id is its hash): a found one may be cached for good. */
@Injectable()
class ImmutableCaching implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      tap(() => {
        void reply.headers({
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
        });
      }),
    );
  }
}

/** Serves the mint-nft action's stored images and metadata, read-only. */
@Controller('nft')
export class NftFilesController {
  constructor(private readonly store: ContentStore) {}

  @Get(':id')
  @UseInterceptors(ImmutableCaching)
  async get(@Param('id') id: string): Promise<StreamableFile> {
    const content = await this.store.get(id);
    if (!content) throw new NotFoundException('No such NFT file');
    return new StreamableFile(content.bytes, {
      type: content.mimeType,
      length: content.bytes.length,
    });
  }
}
