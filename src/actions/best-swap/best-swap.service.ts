import { Injectable } from '@nestjs/common';
import { type ExecutionResponse, type ContextOf, TransactionBuilder } from '../../kit';
import { type PoolInfo, fromBaseUnits, type TransactionSpec } from '../../evm';
import { bestSwapAction, type BestSwapParams } from './best-swap.action';
import { bestRoute } from './best-route';
import { noLiquidity, SwapQuoter } from './swap-quoter';
import {
  SWAP_EXACT_ETH_FOR_TOKENS,
  SWAP_EXACT_TOKENS_FOR_ETH,
  SWAP_EXACT_TOKENS_FOR_TOKENS,
} from './uniswap-v2.abi';

/** How long the signed swap stays valid: long enough to review and sign, short enough to be safe. */
export const DEADLINE_SECONDS = 20 * 60;

type Display = TransactionSpec['display'];

/**
 * Quotes every configured V2-style pool of the pair from its reserves (one JSON-RPC batch,
 * SwapQuoter's quoting), picks the one that returns the most and builds the router's swap through
 * that pool, with `amountOutMin` from the slippage, the user as recipient and a deadline. The
 * native coin is swapped through its wrapped token (`W` + its symbol); the router's allowance is
 * the kit's to ask for (`spend`), so a wallet that never approved is answered the approval first.
 */
@Injectable()
export class BestSwapService {
  constructor(
    private readonly quoter: SwapQuoter,
    private readonly builder: TransactionBuilder,
  ) {}

  async build(
    params: BestSwapParams,
    context: ContextOf<typeof bestSwapAction>,
  ): Promise<ExecutionResponse> {
    const user = context.userAddress;
    const plan = this.quoter.plan(params, context);
    const { chain, sideIn, sideOut, amountIn, pools } = plan;
    const [tokenIn, tokenOut] = [sideIn.pooled, sideOut.pooled];
    const deadline = BigInt(Math.floor(Date.now() / 1000) + DEADLINE_SECONDS);
    const path = [tokenIn.address, tokenOut.address];
    const swap = (pool: PoolInfo, amountOutMin: bigint, display?: Display): TransactionSpec => {
      const common = { chainId: chain.chainId, to: pool.router, display };
      if (sideIn.token.native) {
        const args = [amountOutMin, path, user, deadline];
        return { ...common, value: amountIn, call: { abi: SWAP_EXACT_ETH_FOR_TOKENS, args } };
      }
      const abi = sideOut.token.native ? SWAP_EXACT_TOKENS_FOR_ETH : SWAP_EXACT_TOKENS_FOR_TOKENS;
      return {
        ...common,
        call: { abi, args: [amountIn, amountOutMin, path, user, deadline] },
        spend: { token: tokenIn, amount: amountIn, spender: pool.router },
      };
    };
    const slippageBps = BigInt(Math.round(params.slippage * 100));
    // Every pool's swap is dry-run with a minimum of 0, in the batch that reads the reserves: the
    // run proves the route and returns what it pays (amounts[last]).
    return this.builder.buildBest(
      {
        chainId: chain.chainId,
        reads: this.quoter.reads(plan),
        candidates: pools.map((pool) => swap(pool, 0n)),
        pick: ({ reads, runs }) => {
          const { best, quotes } = this.quoter.rank(plan, reads, params);
          const chosen = bestRoute(quotes, runs, pools);
          // None lands: the best-quoted route's own reason (a route that passed paying nothing has none).
          if (!chosen) throw runs[pools.indexOf(best.pool)].refusal ?? noLiquidity(plan);
          const { index, amountOut } = chosen;
          const pool = pools[index];
          // The answered swap differs from the one dry-run only in its minimum, raised from 0 to
          // amountOut less the slippage. At the state of the run the swap pays exactly amountOut
          // (nothing else in the call changed), and the router's only use of the minimum is
          // `amounts[last] >= amountOutMin`: with a minimum at most amountOut it passes too.
          const amountOutMin = (amountOut * (10_000n - slippageBps)) / 10_000n;
          const summary = `Swap ${fromBaseUnits(amountIn, tokenIn.decimals)} ${params.tokenIn} for at least ${fromBaseUnits(amountOutMin, tokenOut.decimals)} ${params.tokenOut} (quote ${fromBaseUnits(amountOut, tokenOut.decimals)}) via ${pool.name}`;
          const display = {
            args: {
              pool: {
                name: pool.name,
                address: pool.address,
                router: pool.router,
                feeBps: pool.feeBps,
              },
              expectedAmountOut: amountOut,
              summary,
              quotes: quotes.map((q) => ({ pool: q.pool.name, amountOut: q.amountOut })),
            },
          };
          return { candidate: index, answer: swap(pool, amountOutMin, display) };
        },
      },
      context,
    );
  }
}
