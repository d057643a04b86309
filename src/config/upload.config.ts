import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { type Env, readEnv, toInt } from './env';

export const UPLOAD_CONFIG = Symbol('UPLOAD_CONFIG');

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
}

export interface UploadConfig {
  maxBytes: number;
  maxFiles: number;
  /** Text fields per request. */
  maxFields: number;
  /** Largest text field (the `_sdk_context` JSON included): the JSON body limit. */
  maxFieldBytes: number;
}

export function loadUploadConfig(env: Env, maxFieldBytes: number): UploadConfig {
  const vars = readEnv(UploadEnv, env, 'upload configuration');
  return {
    maxBytes: vars.UPLOAD_MAX_BYTES,
    maxFiles: vars.UPLOAD_MAX_FILES,
    maxFields: 200,
    maxFieldBytes,
  };
}
