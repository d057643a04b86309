import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { Address } from 'viem';
import {
  ChainRegistry,
  ActionException,
  type ExecutionResponse,
  type ContextOf,
  TransactionBuilder,
} from '../../kit';
import {
  type ChainInfo,
  type PoolInfo,
  type TokenInfo,
  ChainRpc,
  choosePool,
  fromBaseUnits,
  type PoolReserves,
  RpcAnswerError,
  rpcFailureKind,
  toBaseUnits,
} from '../../evm';
import { bestSwapAction, type BestSwapParams } from './best-swap.action';
import { PAIR_ABI, SWAP_EXACT_TOKENS_FOR_TOKENS } from './uniswap-v2.abi';

/** How long the signed swap stays valid: long enough to review and sign, short enough to be safe. */
export const DEADLINE_SECONDS = 20 * 60;

/**
 * Quotes every configured V2-style pool of the pair from its reserves (one JSON-RPC batch), picks
 * the one that returns the most and builds `swapExactTokensForTokens` through that pool's router,
 * with `amountOutMin` from the slippage, the user as recipient and a deadline.
 */
@Injectable()
export class BestSwapService {
  private readonly logger = new Logger(BestSwapService.name);

  constructor(
    private readonly chains: ChainRegistry,
    private readonly builder: TransactionBuilder,
    private readonly rpc: ChainRpc,
  ) {}

  async build(
    params: BestSwapParams,
    context: ContextOf<typeof bestSwapAction>,
  ): Promise<ExecutionResponse> {
    const user = context.userAddress;
    const chain = this.chains.forRequest(bestSwapAction, context);
    const tokenIn = this.erc20(chain, params.tokenIn, 'tokenIn');
    const tokenOut = this.erc20(chain, params.tokenOut, 'tokenOut');
    if (tokenIn.symbol === tokenOut.symbol) {
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `tokenIn and tokenOut are the same token (${tokenIn.symbol})`,
        { data: { invalidParams: ['tokenOut'] }, code: 'VALIDATION_ERROR' },
      );
    }
    const amountIn = toBaseUnits(params.amountIn, { param: 'amountIn', ...tokenIn });
    const pair = `${tokenIn.symbol}/${tokenOut.symbol}`;
    const pools = chain.pools.filter(
      (p) => p.tokens.includes(tokenIn.symbol) && p.tokens.includes(tokenOut.symbol),
    );
    const { best, quotes } = choosePool(
      await this.reserves(chain, pools, tokenIn.address, tokenOut.address),
      amountIn,
    );
    if (!best) {
      throw new ActionException(
        HttpStatus.NOT_FOUND,
        `No liquidity for ${pair} on ${chain.name} (chain ${chain.chainId})`,
        { code: 'NO_LIQUIDITY' },
      );
    }
    if (best.amountOut === 0n) {
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `amountIn is too small: ${params.amountIn} ${tokenIn.symbol} buys 0 ${tokenOut.symbol} in every pool`,
        { data: { invalidParams: ['amountIn'] }, code: 'ZERO_OUTPUT' },
      );
    }
    const slippageBps = BigInt(Math.round(params.slippage * 100));
    const amountOutMin = (best.amountOut * (10_000n - slippageBps)) / 10_000n;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + DEADLINE_SECONDS);
    const { pool } = best;
    return this.builder.build(
      {
        chainId: chain.chainId,
        to: pool.router,
        call: {
          abi: SWAP_EXACT_TOKENS_FOR_TOKENS,
          args: [amountIn, amountOutMin, [tokenIn.address, tokenOut.address], user, deadline],
        },
        display: {
          args: {
            pool: {
              name: pool.name,
              address: pool.address,
              router: pool.router,
              feeBps: pool.feeBps,
            },
            expectedAmountOut: best.amountOut,
            summary: `Swap ${fromBaseUnits(amountIn, tokenIn.decimals)} ${tokenIn.symbol} for at least ${fromBaseUnits(amountOutMin, tokenOut.decimals)} ${tokenOut.symbol} (quote ${fromBaseUnits(best.amountOut, tokenOut.decimals)}) via ${pool.name}`,
            quotes: quotes.map((q) => ({ pool: q.pool.name, amountOut: q.amountOut })),
          },
        },
      },
      context,
    );
  }

  private erc20(chain: ChainInfo, symbol: string, param: string): TokenInfo & { address: Address } {
    const token = this.chains.token(chain, symbol, param);
    if (token.native || !token.address) {
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `${param} ${symbol} is the native coin; V2 pools hold its wrapped token`,
        { data: { invalidParams: [param] }, code: 'VALIDATION_ERROR' },
      );
    }
    return { ...token, address: token.address };
  }

  /**
   * Reserves of each pool oriented from tokenIn to tokenOut (V2 pairs order their tokens by
   * address). A node that fails is a 500; a pool that reverts or is no contract is left out.
   */
  private async reserves(
    chain: ChainInfo,
    pools: readonly PoolInfo[],
    tokenIn: Address,
    tokenOut: Address,
  ): Promise<PoolReserves<PoolInfo>[]> {
    const results = await this.rpc.read(chain, 'pool reserves', (client) =>
      Promise.allSettled(
        pools.map((pool) =>
          client.readContract({
            address: pool.address,
            abi: PAIR_ABI,
            functionName: 'getReserves',
          }),
        ),
      ),
    );
    const inIsToken0 = tokenIn.toLowerCase() < tokenOut.toLowerCase();
    const usable: PoolReserves<PoolInfo>[] = [];
    results.forEach((result, i) => {
      const pool = pools[i];
      if (result.status === 'rejected') {
        if (rpcFailureKind(result.reason) !== 'reverted') {
          throw this.rpc.failure(chain, 'pool reserves', result.reason);
        }
        this.logger.warn(`Pool ${pool.name} on chain ${chain.chainId} could not be read; skipped`);
        return;
      }
      if (!isReserves(result.value)) {
        throw this.rpc.failure(chain, 'pool reserves', new RpcAnswerError(`${pool.name} reserves`));
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
}

/** Two non-negative amounts: an answer of another shape must not pass for an empty pool. */
const isReserves = (value: unknown): value is readonly [bigint, bigint, ...unknown[]] =>
  Array.isArray(value) &&
  typeof value[0] === 'bigint' &&
  typeof value[1] === 'bigint' &&
  value[0] >= 0n &&
  value[1] >= 0n;
