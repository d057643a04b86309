import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from '../../config/validator-subset';
import { resolve } from 'node:path';
import { type Env, httpUrlRule, readEnv, toBool, toInt } from '../../config/env';
import { registerConfigCheck } from '../../config/configuration.check';

export const NFT_STORAGE_CONFIG = Symbol('NFT_STORAGE_CONFIG');

const isS3 = (env: NftStorageEnv): boolean => env.NFT_STORAGE === 's3';

/** The mint-nft action's storage (docs/operating.md, "NFT storage"). */
class NftStorageEnv {
  /** `local`: a directory (one replica); `s3`: an S3-compatible bucket (AWS S3, R2, MinIO). */
  @IsOptional()
  @IsIn(['local', 's3'])
  NFT_STORAGE = 'local';

  /** Directory of the local store's content-addressed files; created on the first upload. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  NFT_STORAGE_DIR = './nft-storage';

  /** Most bytes the store holds, pending and kept; an upload past it is refused with 507. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  NFT_STORAGE_MAX_BYTES = 1_073_741_824;

  /** Seconds an upload stays without a confirmed mint before the sweeper deletes it. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  NFT_PENDING_TTL_S = 86_400;

  /** Pending uploads (mints not yet confirmed) one user may have; one more is refused with 429. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  NFT_PENDING_MAX_PER_USER = 20;

  /** Seconds between two sweeps of expired pending uploads (each also re-measures the store). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  NFT_SWEEP_INTERVAL_S = 600;

  /** `GET /nft/<id>` requests per client IP per NFT_FILES_RATE_WINDOW_S. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  NFT_FILES_RATE_LIMIT = 120;

  /** Window of NFT_FILES_RATE_LIMIT, in seconds. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  NFT_FILES_RATE_WINDOW_S = 60;

  /** A file answer that sends nothing for this long (the client stopped reading) is cut. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(600_000)
  NFT_SEND_TIMEOUT_MS = 30_000;

  /**
   * `GET /nft/<id>` answers streaming at once on this replica (their look-up included); one more
   * is refused with 503 and Retry-After. Each costs up to about 1 MB of RSS while it sends,
   * however slowly its client reads: 400 slow readers grew the server by 23 to 58 MB at 32
   * (test/bench/nft-slow-readers.ts).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  NFT_FILES_MAX_STREAMS = 32;

  /** Bucket of the S3 store; required with NFT_STORAGE=s3. */
  @ValidateIf(isS3)
  @IsString()
  @MinLength(3)
  @MaxLength(63)
  NFT_S3_BUCKET?: string;

  /** Region of the bucket; AWS_REGION, then `us-east-1`, when unset (R2 wants `auto`). */
  @IsOptional()
  @IsString()
  NFT_S3_REGION?: string;

  /** S3 API endpoint for another provider than AWS (MinIO, R2); AWS's own when unset. */
  @IsOptional()
  @IsUrl(httpUrlRule)
  NFT_S3_ENDPOINT_URL?: string;

  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which MinIO needs. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  NFT_S3_FORCE_PATH_STYLE = false;

  /** Access key of the bucket; the SDK's own chain (AWS_ACCESS_KEY_ID, a role...) when unset. */
  @IsOptional()
  @IsString()
  NFT_S3_ACCESS_KEY_ID?: string;

  /** Secret of NFT_S3_ACCESS_KEY_ID; never logged. */
  @IsOptional()
  @IsString()
  NFT_S3_SECRET_ACCESS_KEY?: string;

  /** Public base URL of the bucket (a CDN or R2's public domain): token URIs point there. */
  @IsOptional()
  @IsUrl(httpUrlRule)
  NFT_S3_PUBLIC_URL?: string;
}

export interface S3StoreConfig {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Without a trailing slash; undefined: this service serves the files at /nft/<id>. */
  publicUrl?: string;
}

export interface NftStorageConfig {
  kind: 'local' | 's3';
  /** Absolute path (a relative NFT_STORAGE_DIR starts at the working directory). */
  dir: string;
  maxBytes: number;
  pendingTtlMs: number;
  pendingMaxPerUser: number;
  sweepIntervalMs: number;
  filesRateLimit: { limit: number; ttlMs: number };
  sendTimeoutMs: number;
  filesMaxStreams: number;
  s3?: S3StoreConfig;
}

export function loadNftStorageConfig(env: Env): NftStorageConfig {
  const vars = readEnv(NftStorageEnv, env, 'NFT storage configuration');
  const keyId = vars.NFT_S3_ACCESS_KEY_ID;
  const secret = vars.NFT_S3_SECRET_ACCESS_KEY;
  if (Boolean(keyId) !== Boolean(secret))
    throw new Error(
      'Invalid NFT storage configuration:\n  - NFT_S3_ACCESS_KEY_ID and NFT_S3_SECRET_ACCESS_KEY go together',
    );
  return {
    kind: vars.NFT_STORAGE as NftStorageConfig['kind'],
    dir: resolve(vars.NFT_STORAGE_DIR),
    maxBytes: vars.NFT_STORAGE_MAX_BYTES,
    pendingTtlMs: vars.NFT_PENDING_TTL_S * 1000,
    pendingMaxPerUser: vars.NFT_PENDING_MAX_PER_USER,
    sweepIntervalMs: vars.NFT_SWEEP_INTERVAL_S * 1000,
    filesRateLimit: {
      limit: vars.NFT_FILES_RATE_LIMIT,
      ttlMs: vars.NFT_FILES_RATE_WINDOW_S * 1000,
    },
    sendTimeoutMs: vars.NFT_SEND_TIMEOUT_MS,
    filesMaxStreams: vars.NFT_FILES_MAX_STREAMS,
    ...(isS3(vars) && {
      s3: {
        bucket: vars.NFT_S3_BUCKET!,
        region: vars.NFT_S3_REGION ?? env.AWS_REGION ?? 'us-east-1',
        endpoint: vars.NFT_S3_ENDPOINT_URL,
        forcePathStyle: vars.NFT_S3_FORCE_PATH_STYLE,
        ...(keyId && secret && { credentials: { accessKeyId: keyId, secretAccessKey: secret } }),
        publicUrl: vars.NFT_S3_PUBLIC_URL?.replace(/\/+$/, ''),
      },
    }),
  };
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadNftStorageConfig);
