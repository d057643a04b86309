import { Module } from '@nestjs/common';
import { ENV } from '../../config/env';
import { TransactionModule } from '../../kit';
import { MintNftController } from './mint-nft.controller';
import { MintNftOutcomes } from './mint-nft.outcomes';
import { MintNftService } from './mint-nft.service';
import {
  loadNftStorageConfig,
  NFT_STORAGE_CONFIG,
  type NftStorageConfig,
} from './nft-storage.config';
import { ContentStore } from './storage/content-store';
import { LocalDirectoryStore } from './storage/local-directory.store';
import { NftFilesThrottlerGuard } from './storage/nft-files-throttler.guard';
import { NftFilesController } from './storage/nft-files.controller';
import { NftStorage } from './storage/nft-storage.service';
import { NftStreams } from './storage/nft-streams';
import { NftStreamsInterceptor } from './storage/nft-streams.interceptor';
import type * as S3 from './storage/s3.store';

@Module({
  imports: [TransactionModule],
  controllers: [MintNftController, NftFilesController],
  providers: [
    MintNftService,
    MintNftOutcomes,
    NftStorage,
    NftFilesThrottlerGuard,
    NftStreams,
    NftStreamsInterceptor,
    { provide: NFT_STORAGE_CONFIG, useFactory: loadNftStorageConfig, inject: [ENV] },
    // NFT_STORAGE picks the store; the action only knows ContentStore (IPFS would go here too).
    {
      provide: ContentStore,
      useFactory: (config: NftStorageConfig): ContentStore => {
        if (config.kind !== 's3') return new LocalDirectoryStore(config);
        // Required only when chosen: the AWS SDK takes about 60 ms of every boot to load.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { S3Store } = require('./storage/s3.store') as typeof S3;
        return new S3Store(config);
      },
      inject: [NFT_STORAGE_CONFIG],
    },
  ],
  exports: [NftStorage],
})
export class MintNftModule {}
