import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from '../config/validator-subset';
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
   * Key of the session tokens (HS256): the base64 or hex of at least 32 random bytes
   * (`openssl rand -base64 32`); never logged. Unset in production, sign-in answers 503 (and the
   * boot warns when an action declares `user: 'verified'`); unset elsewhere: a random key per
   * process (its sessions end with it).
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

  /**
   * Contract-wallet signature checks (ERC-1271, ERC-6492) in flight at once per RPC node, on a
   * bulkhead of their own (as many again wait; more answer 503): they never take the slots of
   * the simulations and chain reads. An EOA's signature is recovered locally and needs none.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000)
  AUTH_WALLET_CHECK_CONCURRENCY = 4;

  /**
   * Gas each contract-wallet check's `eth_call` may burn (the ERC-6492 factory's deployment and
   * `isValidSignature` included): a signature whose factory loops ends out of gas, not at the timeout.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100_000)
  @Max(30_000_000)
  AUTH_WALLET_CHECK_GAS = 1_000_000;
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
  /** AUTH_WALLET_CHECK_CONCURRENCY. */
  walletCheckConcurrency: number;
  /** AUTH_WALLET_CHECK_GAS. */
  walletCheckGas: bigint;
}

export function loadAuthConfig(env: Env): AuthConfig {
  const vars = readEnv(AuthEnv, env, 'sign-in configuration');
  const secret = vars.AUTH_SECRET === undefined ? undefined : decodeSecret(vars.AUTH_SECRET);
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
    walletCheckConcurrency: vars.AUTH_WALLET_CHECK_CONCURRENCY,
    walletCheckGas: BigInt(vars.AUTH_WALLET_CHECK_GAS),
  };
}

const HEX = /^(?:0x)?((?:[0-9a-f]{2})+)$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+$/;

/**
 * The key's bytes, from hex or base64 (standard or URL-safe). Read as text, 32 characters of a
 * passphrase hold far fewer than the 256 bits HS256 wants; encoded random bytes hold them all.
 * Hex is tried first: `openssl rand -base64 32` ends with `=`, never a hex digit.
 */
function decodeSecret(text: string): Buffer {
  const value = text.trim();
  const hex = HEX.exec(value);
  let bytes: Buffer | undefined;
  if (hex) bytes = Buffer.from(hex[1], 'hex');
  else if (BASE64.test(value)) {
    const decoded = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    // Node skips what is not base64: a key must survive the round trip whole.
    const same = decoded.toString('base64').replace(/=+$/, '') === value.replace(/=+$/, '');
    const sameUrl = decoded.toString('base64url') === value;
    if (same || sameUrl) bytes = decoded;
  }
  if (!bytes || bytes.length < MIN_SECRET_BYTES) {
    throw new ConfigError([
      `AUTH_SECRET=<not shown>: must be the base64 or hex of at least ${MIN_SECRET_BYTES} random bytes ` +
        '(make one with `openssl rand -base64 32`)',
    ]);
  }
  return bytes;
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
    `user: 'verified' refuse everyone (set it to the output of openssl rand -base64 32; docs/verified-users.md)`
  );
}

registerConfigCheck(loadAuthConfig);
