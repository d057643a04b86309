import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/app.config';
import { registerConfigCheck } from '../config/configuration.check';
import { ConfigError, type Env, readEnv, toInt } from '../config/env';

export const AUTH_CONFIG = Symbol('AUTH_CONFIG');

/** The shortest secret that signs sessions: 256 bits, as HS256 wants (RFC 7518, 3.2). */
export const MIN_SECRET_BYTES = 32;

/** Sign-In with Ethereum and its sessions (docs/verified-users.md). */
class AuthEnv {
  /**
   * Key of the session tokens (HS256), at least 32 bytes; never logged. Unset in production,
   * sign-in answers 503 (and the boot warns when an action declares `user: 'verified'`); unset
   * elsewhere: a random key per process (its sessions end with it).
   */
  @IsOptional()
  @IsString()
  AUTH_SECRET?: string;

  /** Seconds a session token is valid after sign-in. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(7 * 86_400)
  AUTH_SESSION_TTL_S = 3_600;

  /** Seconds a sign-in nonce (`GET /api/auth/nonce`) may wait for its signed message; used once. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(30)
  @Max(3_600)
  AUTH_NONCE_TTL_S = 300;

  /** Seconds of clock difference forgiven on a message's and a token's times. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300)
  AUTH_CLOCK_SKEW_S = 30;

  /**
   * Hosts (`host[:port]`, comma-separated) a sign-in message may name as its domain and URI;
   * unset: `PUBLIC_BASE_URL`'s host, else (development and tests) the request's host.
   */
  @IsOptional()
  @Matches(/^[a-z0-9.-]+(:\d{1,5})?(\s*,\s*[a-z0-9.-]+(:\d{1,5})?)*$/i, {
    message: 'AUTH_DOMAINS must be hosts (host[:port]) separated by commas',
  })
  AUTH_DOMAINS?: string;

  /**
   * Nonces kept in process memory (no REDIS_URL), the oldest dropped first; as many revoked
   * sessions, which are never dropped early (a full deny-list answers logout 503).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(10_000_000)
  AUTH_MEMORY_MAX = 100_000;
}

export interface AuthConfig {
  /** The key that signs and checks session tokens. */
  secret: Uint8Array;
  /** False when no AUTH_SECRET was set (a random key for this process). */
  secretConfigured: boolean;
  sessionTtlS: number;
  nonceTtlS: number;
  clockSkewS: number;
  /** Lower-case hosts a message may name; empty: PUBLIC_BASE_URL's host or the request's. */
  domains: string[];
  memoryMax: number;
}

export function loadAuthConfig(env: Env): AuthConfig {
  const vars = readEnv(AuthEnv, env, 'sign-in configuration');
  const secret = vars.AUTH_SECRET === undefined ? undefined : Buffer.from(vars.AUTH_SECRET, 'utf8');
  if (secret && secret.length < MIN_SECRET_BYTES) {
    throw new ConfigError([`AUTH_SECRET=<not shown>: must be at least ${MIN_SECRET_BYTES} bytes`]);
  }
  return {
    secret: new Uint8Array(secret ?? randomBytes(MIN_SECRET_BYTES)),
    secretConfigured: secret !== undefined,
    sessionTtlS: vars.AUTH_SESSION_TTL_S,
    nonceTtlS: vars.AUTH_NONCE_TTL_S,
    clockSkewS: vars.AUTH_CLOCK_SKEW_S,
    domains: (vars.AUTH_DOMAINS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    memoryMax: vars.AUTH_MEMORY_MAX,
  };
}

/**
 * Whether sign-in may issue sessions: not in production without AUTH_SECRET, where each replica
 * would sign with its own random key and every restart sign everyone out. It answers 503 there
 * instead of refusing the boot, so a deployment that does not use verified users (and README's
 * `npm start` on a fresh machine) still serves every other action.
 */
export function signInAvailable(auth: AuthConfig, app: AppConfig): boolean {
  return app.nodeEnv !== 'production' || auth.secretConfigured;
}

/** The boot's warning when an action needs verified users and sign-in cannot serve them. */
export function missingSecretWarning(
  auth: AuthConfig,
  app: AppConfig,
  needed: boolean,
): string | undefined {
  if (!needed || signInAvailable(auth, app)) return undefined;
  return (
    `AUTH_SECRET is unset in production: sign-in answers 503, so the actions that declare ` +
    `user: 'verified' refuse everyone (set at least ${MIN_SECRET_BYTES} bytes; docs/verified-users.md)`
  );
}

registerConfigCheck(loadAuthConfig);
