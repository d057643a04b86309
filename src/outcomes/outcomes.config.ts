import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from '../config/validator-subset';
import { type Env, readEnv, toInt } from '../config/env';
import { registerConfigCheck } from '../config/configuration.check';

export const OUTCOMES_CONFIG = Symbol('OUTCOMES_CONFIG');

class OutcomesEnv {
  /** Seconds a transaction answer waits for its hash and its block before it turns `expired`; a settled intent stays readable as long again. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(30 * 86_400)
  INTENT_TTL_S = 86_400;

  /** Blocks a mined transaction needs (its own included) before it is `confirmed` or `reverted`. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000)
  TX_CONFIRMATIONS = 1;

  /** Intents the expiry watcher expires at once, per replica. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  OUTCOME_POLL_CONCURRENCY = 4;

  /**
   * Open intents one user may have on a chain from one origin (signed in, or one claiming client);
   * a new one past it expires the oldest of the same user and origin.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  INTENT_MAX_OPEN_PER_USER = 50;

  /** Open intents in all; past it a transaction answer goes out without an intent (counted and logged). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  INTENT_MAX_OPEN = 100_000;

  /**
   * Open intents of claimed (not signed-in) users in all; past it their answers go out without an
   * intent, while signed-in users' still get one (up to INTENT_MAX_OPEN).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  INTENT_MAX_OPEN_CLAIMED = 80_000;

  /**
   * Open intents of claimed users answered to one client IP (TRUST_PROXY decides which address is
   * the client's), whatever the users; a new one past it expires that client's oldest.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  INTENT_MAX_OPEN_PER_CLIENT = 10_000;

  /** Intents kept in process memory (no REDIS_URL); the least recently used go first. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  INTENT_MEMORY_MAX = 10_000;

  /** Times a throwing outcome hook runs before it is given up (logged), backing off exponentially. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  OUTCOME_HOOK_ATTEMPTS = 5;

  /**
   * Milliseconds between the outbox relay's sweeps (also run at boot), which deliver again what a
   * replica that died or failed left in the outbox; an entry is left to its writer this long past
   * its hooks' backoffs first.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(3_600_000)
  OUTBOX_SWEEP_MS = 60_000;

  /** Milliseconds before a failed hook's first retry; each retry waits twice as long. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600_000)
  OUTCOME_HOOK_BACKOFF_MS = 1_000;
}

export interface OutcomesConfig {
  /** Milliseconds. */
  ttlMs: number;
  confirmations: number;
  concurrency: number;
  maxOpenPerUser: number;
  maxOpen: number;
  maxOpenClaimed: number;
  maxOpenPerClient: number;
  memoryMax: number;
  hookAttempts: number;
  hookBackoffMs: number;
  outboxSweepMs: number;
}

export function loadOutcomesConfig(env: Env): OutcomesConfig {
  const vars = readEnv(OutcomesEnv, env, 'transaction outcomes configuration');
  return {
    ttlMs: vars.INTENT_TTL_S * 1000,
    confirmations: vars.TX_CONFIRMATIONS,
    concurrency: vars.OUTCOME_POLL_CONCURRENCY,
    maxOpenPerUser: vars.INTENT_MAX_OPEN_PER_USER,
    maxOpen: vars.INTENT_MAX_OPEN,
    maxOpenClaimed: vars.INTENT_MAX_OPEN_CLAIMED,
    maxOpenPerClient: vars.INTENT_MAX_OPEN_PER_CLIENT,
    memoryMax: vars.INTENT_MEMORY_MAX,
    hookAttempts: vars.OUTCOME_HOOK_ATTEMPTS,
    hookBackoffMs: vars.OUTCOME_HOOK_BACKOFF_MS,
    outboxSweepMs: vars.OUTBOX_SWEEP_MS,
  };
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadOutcomesConfig);
