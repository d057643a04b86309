import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

export const APP_CONFIG = Symbol('APP_CONFIG');

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;

/** Environment variables the service reads, with their defaults (documented in README.md). */
class EnvironmentVariables {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsOptional()
  @IsString()
  @MinLength(1)
  HOST = '0.0.0.0';

  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV = 'production';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  BODY_LIMIT_BYTES = 1_048_576;

  @IsOptional()
  @IsString()
  @MinLength(1)
  METADATA_TITLE = 'Dynamic actions';

  @IsOptional()
  @IsString()
  @MinLength(1)
  METADATA_DESCRIPTION = 'Server-side actions for mini-app buttons';

  @IsOptional()
  @IsUrl({ require_tld: false })
  METADATA_ICON_URL?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  PUBLIC_BASE_URL?: string;
}

export interface AppConfig {
  port: number;
  host: string;
  nodeEnv: 'development' | 'production' | 'test';
  bodyLimitBytes: number;
  metadata: { title: string; description: string; iconUrl?: string };
  /** Absolute base URL published in metadata; derived from the request's host when unset. */
  publicBaseUrl?: string;
}

/** Reads and validates the environment; a bad value stops the boot with every problem named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const set = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const vars = plainToInstance(EnvironmentVariables, set, { exposeDefaultValues: true });
  const errors = validateSync(vars);
  if (errors.length > 0) {
    const problems = errors.map(
      (e) =>
        `${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`,
    );
    throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return {
    port: vars.PORT,
    host: vars.HOST,
    nodeEnv: vars.NODE_ENV as AppConfig['nodeEnv'],
    bodyLimitBytes: vars.BODY_LIMIT_BYTES,
    metadata: {
      title: vars.METADATA_TITLE,
      description: vars.METADATA_DESCRIPTION,
      iconUrl: vars.METADATA_ICON_URL,
    },
    publicBaseUrl: vars.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
  };
}
