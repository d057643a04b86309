import {
  Controller,
  Get,
  Inject,
  NotFoundException,
  Param,
  type StreamableFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { fileAnswer, ServesImmutableFiles } from '../../../kit';
import { NFT_STORAGE_CONFIG, type NftStorageConfig } from '../nft-storage.config';
import { etagOf } from './content-id';
import { NftFilesThrottlerGuard } from './nft-files-throttler.guard';
import { NftStorage } from './nft-storage.service';
import { NftStreamsInterceptor } from './nft-streams.interceptor';

/**
 * Serves the mint-nft action's stored images and metadata, read-only; an id is its hash, so the
 * hash is a strong ETag. Streamed with backpressure, rate-limited per IP, cut when stalled,
 * and at most NFT_FILES_MAX_STREAMS at once, one per connection (NftStreams).
 */
@Controller('nft')
@ServesImmutableFiles()
@UseGuards(NftFilesThrottlerGuard)
export class NftFilesController {
  constructor(
    private readonly storage: NftStorage,
    @Inject(NFT_STORAGE_CONFIG) private readonly config: NftStorageConfig,
  ) {}

  @Get(':id')
  // On the method, so inside the class's file interceptor (see NftStreamsInterceptor).
  @UseInterceptors(NftStreamsInterceptor)
  async get(@Param('id') id: string): Promise<StreamableFile> {
    const content = await this.storage.open(id);
    if (!content) throw new NotFoundException('No such NFT file');
    return fileAnswer(content.body, content.mimeType, {
      length: content.size,
      etag: etagOf(id),
      sendTimeoutMs: this.config.sendTimeoutMs,
    });
  }
}
