import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from './validator-subset';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { type Env, readEnv, toInt } from './env';

/** Injection token of the UploadConfig the upload guard and parser read. */
export const UPLOAD_CONFIG = Symbol('UPLOAD_CONFIG');

/** Files up to this size stay in memory; a larger one is written to a temporary file as it arrives. */
export const SPOOL_THRESHOLD_BYTES = 65_536;

/** Limits of multipart uploads (docs/uploads.md). */
class UploadEnv {
  /** Largest multipart request, files and fields together; crossing it is a 413 at once. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(1_073_741_824)
  UPLOAD_MAX_BYTES = 10_485_760;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  UPLOAD_MAX_FILES = 10;

  /**
   * Bytes of every upload being received at once, all clients and actions together (a declared
   * `Content-Length` is reserved whole); an upload that would pass it is a 503. At least
   * UPLOAD_MAX_BYTES.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(17_179_869_184)
  UPLOAD_MAX_INFLIGHT_BYTES = 67_108_864;

  /** Uploads one client IP may have running at once, across every action; one more is a 429. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  UPLOAD_MAX_PER_CLIENT = 4;

  /**
   * Directory where files over 64 KiB are written as they arrive, one folder per request
   * (`dynamic-action-upload-*`, removed after the answer; those left by a killed process are
   * removed at boot). On a read-only root filesystem mount a writable volume here, sized at least
   * UPLOAD_MAX_INFLIGHT_BYTES; when it cannot be written such uploads are a 503. Absolute path;
   * unset: the system temporary directory (`TMPDIR`, else `/tmp`).
   */
  @IsOptional()
  @IsString()
  @Matches(/^\//, { message: 'must be an absolute path' })
  UPLOAD_SPOOL_DIR?: string;
}

/**
 * The bounds on multipart uploads (UPLOAD_*): sizes, counts and memory, whatever clients send, and
 * where large files spool to disk.
 */
export interface UploadConfig {
  maxBytes: number;
  maxFiles: number;
  /** Text fields per request. */
  maxFields: number;
  /** Largest text field (the `_sdk_context` JSON included): the JSON body limit. */
  maxFieldBytes: number;
  /** Bytes of all uploads being received at once. */
  maxInflightBytes: number;
  /** Uploads running at once per client IP. */
  maxPerClient: number;
  /** Files larger than this are written to a temporary directory instead of memory. */
  spoolThresholdBytes: number;
  /** Where those files are written: each request's folder is made in it. */
  spoolDir: string;
}

/**
 * Reads and validates the UPLOAD_* variables. `maxFieldBytes` is the JSON body limit, so a form's
 * `_sdk_context` field is held to what a JSON request may carry.
 */
export function loadUploadConfig(env: Env, maxFieldBytes: number): UploadConfig {
  const vars = readEnv(UploadEnv, env, 'upload configuration');
  if (vars.UPLOAD_MAX_INFLIGHT_BYTES < vars.UPLOAD_MAX_BYTES) {
    throw new Error(
      `Invalid upload configuration:\n  - UPLOAD_MAX_INFLIGHT_BYTES=${vars.UPLOAD_MAX_INFLIGHT_BYTES}: ` +
        `must be at least UPLOAD_MAX_BYTES (${vars.UPLOAD_MAX_BYTES}), or no upload of the largest size could run`,
    );
  }
  return {
    maxBytes: vars.UPLOAD_MAX_BYTES,
    maxFiles: vars.UPLOAD_MAX_FILES,
    maxFields: 200,
    maxFieldBytes,
    maxInflightBytes: vars.UPLOAD_MAX_INFLIGHT_BYTES,
    maxPerClient: vars.UPLOAD_MAX_PER_CLIENT,
    spoolThresholdBytes: SPOOL_THRESHOLD_BYTES,
    // Read at boot, as every setting: the default is TMPDIR's value then.
    spoolDir: resolve(vars.UPLOAD_SPOOL_DIR ?? tmpdir()),
  };
}
