import { Controller, Get, NotFoundException, Param, type StreamableFile } from '@nestjs/common';
import { fileAnswer, ServesImmutableFiles } from '../../../kit';
import { ContentStore } from './content-store';

/** Serves the mint-nft action's stored images and metadata, read-only; an id is its hash. */
@Controller('nft')
@ServesImmutableFiles()
export class NftFilesController {
  constructor(private readonly store: ContentStore) {}

  @Get(':id')
  async get(@Param('id') id: string): Promise<StreamableFile> {
    const content = await this.store.get(id);
    if (!content) throw new NotFoundException('No such NFT file');
    return fileAnswer(content.bytes, content.mimeType);
  }
}
