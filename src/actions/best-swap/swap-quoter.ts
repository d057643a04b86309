import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { Address } from 'viem';
import {
  type ActionDeclaration,
  ActionException,
  ChainRegistry,
  type RequestContext,
} from '../../kit';
import {
  type ChainInfo,
  ChainRpc,
  choosePool,
  type PoolInfo,
  type PoolQuote,
  type TokenInfo,
  toBaseUnits,
} from '../../evm';
import { bestSwapAction } from './best-swap.action';
import { poolReserves } from './best-route';
import { PAIR_ABI } from './uniswap-v2.abi';

/** What a swap is asked for: the tokens by symbol and the amount sold, as decimal text. */
export interface SwapQuestion {
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
}

/** One side of a swap: the token as the user named it, and the ERC-20 its pools hold. */
export interface Side {
  token: TokenInfo;
  pooled: TokenInfo & { address: Address };
}

/** A swap resolved on its chain: its two sides, the amount in base units, the pools of the pair. */
export interface SwapPlan {
  chain: ChainInfo;
  sideIn: Side;
  sideOut: Side;
  amountIn: bigint;
  pools: PoolInfo[];
  /** `USDC/WAVAX`, as the request named the tokens. */
  pair: string;
}

/** The pools' quotes from their reserves, and the one that pays the most. */
export interface RankedQuotes {
  best: PoolQuote<PoolInfo>;
  quotes: PoolQuote<PoolInfo>[];
}

/**
 * Best swap's quoting, shared by the swap it builds (BestSwapService) and the quote it sells
 * (swap-quote): the pair resolved on the chain (the native coin through its wrapped token), the
 * configured V2-style pools of the pair, and each pool's output from its reserves (constant
 * product, after its fee), the best first refused when every pool pays nothing.
 */
@Injectable()
export class SwapQuoter {
  private readonly logger = new Logger(SwapQuoter.name);

  constructor(
    private readonly chains: ChainRegistry,
    private readonly rpc: ChainRpc,
  ) {}

  /**
   * The swap on the request's chain (among those `declared` serves); same tokens, unknown tokens
   * or no pool of the pair are refused.
   */
  plan(
    question: SwapQuestion,
    context: RequestContext,
    declared: Pick<ActionDeclaration, 'chains'> = bestSwapAction,
  ): SwapPlan {
    const chain = this.chains.forRequest(declared, context);
    const sideIn = this.side(chain, question.tokenIn, 'tokenIn');
    const sideOut = this.side(chain, question.tokenOut, 'tokenOut');
    const [tokenIn, tokenOut] = [sideIn.pooled, sideOut.pooled];
    if (tokenIn.symbol === tokenOut.symbol) {
      const same =
        question.tokenIn === question.tokenOut
          ? question.tokenIn
          : `${chain.native.symbol} is swapped as ${tokenIn.symbol}`;
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `tokenIn and tokenOut are the same token (${same})`,
        { data: { invalidParams: ['tokenOut'] }, code: 'VALIDATION_ERROR' },
      );
    }
    const amountIn = toBaseUnits(question.amountIn, { param: 'amountIn', ...sideIn.token });
    const pair = `${question.tokenIn}/${question.tokenOut}`;
    const pools = chain.pools.filter(
      (p) => p.tokens.includes(tokenIn.symbol) && p.tokens.includes(tokenOut.symbol),
    );
    const plan = { chain, sideIn, sideOut, amountIn, pools, pair };
    if (pools.length === 0) throw noLiquidity(plan);
    return plan;
  }

  /** The reserve reads of the plan's pools, one per pool, for a batch. */
  reads(plan: SwapPlan): { address: Address; abi: typeof PAIR_ABI; functionName: 'getReserves' }[] {
    return plan.pools.map((pool) => ({
      address: pool.address,
      abi: PAIR_ABI,
      functionName: 'getReserves' as const,
    }));
  }

  /** Each pool's quote from the reserves read, the best one first; none paying is refused. */
  rank(
    plan: SwapPlan,
    reads: readonly PromiseSettledResult<unknown>[],
    question: SwapQuestion,
  ): RankedQuotes {
    const { chain, pools, sideIn, sideOut, amountIn } = plan;
    const reserves = poolReserves(
      this.rpc,
      this.logger,
      chain,
      pools,
      reads,
      sideIn.pooled.address,
      sideOut.pooled.address,
    );
    const { best, quotes } = choosePool(reserves, amountIn);
    if (!best) throw noLiquidity(plan);
    if (best.amountOut === 0n) {
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `amountIn is too small: ${question.amountIn} ${question.tokenIn} buys 0 ${question.tokenOut} in every pool`,
        { data: { invalidParams: ['amountIn'] }, code: 'ZERO_OUTPUT' },
      );
    }
    return { best, quotes };
  }

  /** The best route from the pools' reserves now, read in one batch: no transaction. */
  async quote(
    question: SwapQuestion,
    context: RequestContext,
    declared: Pick<ActionDeclaration, 'chains'>,
  ): Promise<SwapPlan & RankedQuotes> {
    const plan = this.plan(question, context, declared);
    const reads = await this.rpc.read(plan.chain, 'pool reserves', (client) =>
      Promise.allSettled(this.reads(plan).map((read) => client.readContract(read))),
    );
    return { ...plan, ...this.rank(plan, reads, question) };
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

/** No pool of the pair, or none with reserves: a 404. */
export function noLiquidity({ pair, chain }: Pick<SwapPlan, 'pair' | 'chain'>): ActionException {
  return new ActionException(
    HttpStatus.NOT_FOUND,
    `No liquidity for ${pair} on ${chain.name} (chain ${chain.chainId})`,
    { code: 'NO_LIQUIDITY' },
  );
}
