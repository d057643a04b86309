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
import {
  PAIR_ABI,
  SWAP_EXACT_ETH_FOR_TOKENS,
  SWAP_EXACT_TOKENS_FOR_ETH,
  SWAP_EXACT_TOKENS_FOR_TOKENS,
} from './uniswap-v2.abi';

/** How long the signed swap stays valid: long enough to review and sign, short enough to be safe. */
export const DEADLINE_SECONDS = 20 * 60;

/** One side of a swap: the token as the user named it, and the ERC-20 its pools hold. */
interface Side {
  token: TokenInfo;
  pooled: TokenInfo & { address: Address };
}

/**
 * Quotes every configured V2-style pool of the pair from its reserves (one JSON-RPC batch), picks
 * the one that returns the most and builds the router's swap through that pool, with
 * `amountOutMin` from the slippage, the user as recipient and a deadline. The native coin is
 * swapped through its wrapped token (`W` + its symbol); the router's allowance is the kit's to
 * ask for (`spend`), so a wallet that never approved is answered the approval first.
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
    const sideIn = this.side(chain, params.tokenIn, 'tokenIn');
    const sideOut = this.side(chain, params.tokenOut, 'tokenOut');
    const [tokenIn, tokenOut] = [sideIn.pooled, sideOut.pooled];
    if (tokenIn.symbol === tokenOut.symbol) {
      const same =
        params.tokenIn === params.tokenOut
          ? params.tokenIn
          : `${chain.native.symbol} is swapped as ${tokenIn.symbol}`;
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `tokenIn and tokenOut are the same token (${same})`,
        { data: { invalidParams: ['tokenOut'] }, code: 'VALIDATION_ERROR' },
      );
    }
    const amountIn = toBaseUnits(params.amountIn, { param: 'amountIn', ...sideIn.token });
    const pair = `${params.tokenIn}/${params.tokenOut}`;
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
        `amountIn is too small: ${params.amountIn} ${params.tokenIn} buys 0 ${params.tokenOut} in every pool`,
        { data: { invalidParams: ['amountIn'] }, code: 'ZERO_OUTPUT' },
      );
    }
    const slippageBps = BigInt(Math.round(params.slippage * 100));
    const amountOutMin = (best.amountOut * (10_000n - slippageBps)) / 10_000n;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + DEADLINE_SECONDS);
    const { pool } = best;
    const path = [tokenIn.address, tokenOut.address];
    const summary = `Swap ${fromBaseUnits(amountIn, tokenIn.decimals)} ${params.tokenIn} for at least ${fromBaseUnits(amountOutMin, tokenOut.decimals)} ${params.tokenOut} (quote ${fromBaseUnits(best.amountOut, tokenOut.decimals)}) via ${pool.name}`;
    const display = {
      args: {
        pool: { name: pool.name, address: pool.address, router: pool.router, feeBps: pool.feeBps },
        expectedAmountOut: best.amountOut,
        summary,
        quotes: quotes.map((q) => ({ pool: q.pool.name, amountOut: q.amountOut })),
      },
    };
    const common = { chainId: chain.chainId, to: pool.router, display };
    if (sideIn.token.native) {
      return this.builder.build(
        {
          ...common,
          value: amountIn,
          call: { abi: SWAP_EXACT_ETH_FOR_TOKENS, args: [amountOutMin, path, user, deadline] },
        },
        context,
      );
    }
    const abi = sideOut.token.native ? SWAP_EXACT_TOKENS_FOR_ETH : SWAP_EXACT_TOKENS_FOR_TOKENS;
    return this.builder.build(
      {
        ...common,
        call: { abi, args: [amountIn, amountOutMin, path, user, deadline] },
        spend: { token: tokenIn, amount: amountIn, spender: pool.router },
      },
      context,
    );
  }

  /** The token a user named and the ERC-20 the pools hold for it: the wrapped coin for the native. */
  private side(chain: ChainInfo, symbol: string, param: string): Side {
    const token = this.chains.token(chain, symbol, param);
    if (!token.native && token.address)
      return { token, pooled: { ...token, address: token.address } };
    const wrapped = chain.tokens.get(`W${token.symbol}`);
    if (!wrapped?.address) {
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `${param} ${symbol} cannot be swapped on ${chain.name}: no W${token.symbol} is configured`,
        { data: { invalidParams: [param] }, code: 'VALIDATION_ERROR' },
      );
    }
    return { token, pooled: { ...wrapped, address: wrapped.address } };
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
