import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from '../../config/validator-subset';
import { type Env, readEnv, toInt } from '../../config/env';
import { registerConfigCheck } from '../../config/configuration.check';

class RpcEnv {
  /**
   * Most JSON-RPC calls one request to a node carries (viem's batches, the simulation's and the
   * chain follower's); public nodes refuse larger batches (Avalanche's accept 40).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000)
  RPC_MAX_BATCH_CALLS = 40;
}

/** How requests to every chain's node are shaped, whatever the chain. */
export interface RpcConfig {
  /** RPC_MAX_BATCH_CALLS. */
  maxBatchCalls: number;
}

export function loadRpcConfig(env: Env): RpcConfig {
  return { maxBatchCalls: readEnv(RpcEnv, env, 'RPC configuration').RPC_MAX_BATCH_CALLS };
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadRpcConfig);
