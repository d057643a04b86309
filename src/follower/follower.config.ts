import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from '../config/validator-subset';
import { type Env, readEnv, toInt } from '../config/env';
import { registerConfigCheck } from '../config/configuration.check';

export const FOLLOWER_CONFIG = Symbol('FOLLOWER_CONFIG');

class FollowerEnv {
  /** Milliseconds between two looks of the chain follower at each served chain's head. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(600_000)
  OUTCOME_POLL_MS = 3_000;

  /** Blocks the follower reads at most to catch up after a restart or an outage; older ones are skipped (logged and counted). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  OUTCOME_CATCHUP_BLOCKS = 5_000;

  /**
   * Blocks the follower remembers to undo a reorg, and the deepest it rewinds: past it, or where the
   * node's blocks do not chain, they are taken as they come (logged and counted).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  OUTCOME_REORG_DEPTH = 64;
}

export interface FollowerConfig {
  pollMs: number;
  catchupBlocks: number;
  reorgDepth: number;
}

export function loadFollowerConfig(env: Env): FollowerConfig {
  const vars = readEnv(FollowerEnv, env, 'chain follower configuration');
  return {
    pollMs: vars.OUTCOME_POLL_MS,
    catchupBlocks: vars.OUTCOME_CATCHUP_BLOCKS,
    reorgDepth: vars.OUTCOME_REORG_DEPTH,
  };
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadFollowerConfig);
