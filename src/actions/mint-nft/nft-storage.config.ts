import { IsOptional, IsString, MinLength } from 'class-validator';
import { resolve } from 'node:path';
import { type Env, readEnv } from '../../config/env';

export const NFT_STORAGE_CONFIG = Symbol('NFT_STORAGE_CONFIG');

class NftStorageEnv {
  /** Directory of the mint-nft action's content-addressed files; created on the first upload. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  NFT_STORAGE_DIR = './nft-storage';
}

export interface NftStorageConfig {
  /** Absolute path (a relative NFT_STORAGE_DIR starts at the working directory). */
  dir: string;
}

export function loadNftStorageConfig(env: Env): NftStorageConfig {
  return { dir: resolve(readEnv(NftStorageEnv, env, 'NFT storage configuration').NFT_STORAGE_DIR) };
}
