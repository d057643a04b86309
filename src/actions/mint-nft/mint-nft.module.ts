import { Module } from '@nestjs/common';
import { ENV } from '../../config/env';
import { loadNftStorageConfig, NFT_STORAGE_CONFIG } from './nft-storage.config';
import { TransactionModule } from '../../kit';
import { MintNftController } from './mint-nft.controller';
import { MintNftService } from './mint-nft.service';
import { ContentStore } from './storage/content-store';
import { LocalDirectoryStore } from './storage/local-directory.store';
import { NftFilesController } from './storage/nft-files.controller';

@Module({
  imports: [TransactionModule],
  controllers: [MintNftController, NftFilesController],
  providers: [
    MintNftService,
    { provide: NFT_STORAGE_CONFIG, useFactory: loadNftStorageConfig, inject: [ENV] },
    // Swap for IPFS or S3 here: the action only knows ContentStore.
    { provide: ContentStore, useClass: LocalDirectoryStore },
  ],
})
export class MintNftModule {}
