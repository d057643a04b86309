import { Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { NFT_STORAGE_CONFIG, type NftStorageConfig } from '../nft-storage.config';

/**
 * The throttler's own guard on `GET /nft/<id>`, counting per client IP in the service's
 * throttler store (Redis when configured, so replicas count together) with the limit of
 * NFT_FILES_RATE_LIMIT per NFT_FILES_RATE_WINDOW_S instead of the actions' limits.
 */
@Injectable()
export class NftFilesThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(NFT_STORAGE_CONFIG) private readonly config: NftStorageConfig,
  ) {
    super(options, storage, reflector);
  }

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    const { limit, ttlMs } = this.config.filesRateLimit;
    this.throttlers = [{ name: 'default', limit, ttl: ttlMs }];
  }
}
