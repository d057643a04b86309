import type { Logger } from '@nestjs/common';
import type { Address } from 'viem';
import {
  type CandidateRun,
  type ChainInfo,
  ChainRpc,
  type PoolInfo,
  type PoolQuote,
  type PoolReserves,
  RpcAnswerError,
  rpcFailureKind,
} from '../../evm';

/**
 * Reserves of each pool oriented from tokenIn to tokenOut (V2 pairs order their tokens by
 * address). A node that fails is a 500; a pool that reverts or is no contract is left out.
 */
export function poolReserves(
  rpc: ChainRpc,
  logger: Logger,
  chain: ChainInfo,
  pools: readonly PoolInfo[],
  results: readonly PromiseSettledResult<unknown>[],
  tokenIn: Address,
  tokenOut: Address,
): PoolReserves<PoolInfo>[] {
  const inIsToken0 = tokenIn.toLowerCase() < tokenOut.toLowerCase();
  const usable: PoolReserves<PoolInfo>[] = [];
  results.forEach((result, i) => {
    const pool = pools[i];
    if (result.status === 'rejected') {
      if (rpcFailureKind(result.reason) !== 'reverted') {
        throw rpc.failure(chain, 'pool reserves', result.reason);
      }
      logger.warn(`Pool ${pool.name} on chain ${chain.chainId} could not be read; skipped`);
      return;
    }
    if (!isReserves(result.value)) {
      throw rpc.failure(chain, 'pool reserves', new RpcAnswerError(`${pool.name} reserves`));
    }
    const [reserve0, reserve1] = result.value;
    usable.push({
      pool,
      reserveIn: inIsToken0 ? reserve0 : reserve1,
      reserveOut: inIsToken0 ? reserve1 : reserve0,
      feeBps: pool.feeBps,
    });
  });
  return usable;
}

/**
 * The route that pays the most among those that may be answered: a swap that passed its dry run
 * counts for what it returned; one whose allowance is short (the approval comes first) or left
 * unchecked (TX_SIMULATE=off) for its reserves' quote. A swap that would revert is skipped.
 */
export function bestRoute(
  quotes: readonly PoolQuote<PoolInfo>[],
  runs: readonly CandidateRun[],
  pools: readonly PoolInfo[],
): { index: number; amountOut: bigint } | undefined {
  let chosen: { index: number; amountOut: bigint } | undefined;
  for (const quote of quotes) {
    const index = pools.indexOf(quote.pool);
    const run = runs[index];
    const amountOut =
      run.kind === 'lands' ? paid(run.output) : run.kind === 'refused' ? 0n : quote.amountOut;
    if (amountOut > 0n && (!chosen || amountOut > chosen.amountOut)) chosen = { index, amountOut };
  }
  return chosen;
}

/** What a router's swap returned: its `amounts`, the last the output (0 when of another shape). */
function paid(output: unknown): bigint {
  const last: unknown = Array.isArray(output) ? (output as unknown[]).at(-1) : undefined;
  return typeof last === 'bigint' ? last : 0n;
}

/** Two non-negative amounts: an answer of another shape must not pass for an empty pool. */
const isReserves = (value: unknown): value is readonly [bigint, bigint, ...unknown[]] =>
  Array.isArray(value) &&
  typeof value[0] === 'bigint' &&
  typeof value[1] === 'bigint' &&
  value[0] >= 0n &&
  value[1] >= 0n;
