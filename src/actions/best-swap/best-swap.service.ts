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
  toBaseUnits,
  type TransactionSpec,
} from '../../evm';
import { bestSwapAction, type BestSwapParams } from './best-swap.action';
import { bestRoute, poolReserves } from './best-route';
import {
  PAIR_ABI,
  SWAP_EXACT_ETH_FOR_TOKENS,
  SWAP_EXACT_TOKENS_FOR_ETH,
  SWAP_EXACT_TOKENS_FOR_TOKENS,
} from './uniswap-v2.abi';

/** How long the signed swap stays valid: long enough to review and sign, short enough to be safe. */
export const DEADLINE_SECONDS = 20 * 60;

type Display = TransactionSpec['display'];

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
    const noLiquidity = (): ActionException =>
      new ActionException(
        HttpStatus.NOT_FOUND,
        `No liquidity for ${pair} on ${chain.name} (chain ${chain.chainId})`,
        { code: 'NO_LIQUIDITY' },
      );
    if (pools.length === 0) throw noLiquidity();
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
        reads: pools.map((pool) => ({
          address: pool.address,
          abi: PAIR_ABI,
          functionName: 'getReserves',
        })),
        candidates: pools.map((pool) => swap(pool, 0n)),
        pick: ({ reads, runs }) => {
          const quoted = choosePool(
            poolReserves(
              this.rpc,
              this.logger,
              chain,
              pools,
              reads,
              tokenIn.address,
              tokenOut.address,
            ),
            amountIn,
          );
          const { best, quotes } = quoted;
          if (!best) throw noLiquidity();
          if (best.amountOut === 0n) {
            throw new ActionException(
              HttpStatus.BAD_REQUEST,
              `amountIn is too small: ${params.amountIn} ${params.tokenIn} buys 0 ${params.tokenOut} in every pool`,
              { data: { invalidParams: ['amountIn'] }, code: 'ZERO_OUTPUT' },
            );
          }
          const chosen = bestRoute(quotes, runs, pools);
          // None lands: the best-quoted route's own reason (a route that passed paying nothing has none).
          if (!chosen) throw runs[pools.indexOf(best.pool)].refusal ?? noLiquidity();
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
}
