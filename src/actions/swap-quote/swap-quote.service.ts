import { Injectable } from '@nestjs/common';
import type { ActionResult, ContextOf } from '../../kit';
import { fromBaseUnits } from '../../evm';
import { SwapQuoter } from '../best-swap/swap-quoter';
import { swapQuoteAction, type SwapQuoteParams } from './swap-quote.action';

/** The quote swap-quote answers: best swap's route and amounts, in decimal text. */
export interface SwapQuote {
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  amountOut: string;
  route: { pool: string; address: string; router: string; feeBps: number };
  quotes: { pool: string; amountOut: string }[];
}

/** Best swap's quoting (SwapQuoter), answered as data: the route and what it pays. */
@Injectable()
export class SwapQuoteService {
  constructor(private readonly quoter: SwapQuoter) {}

  async quote(
    params: SwapQuoteParams,
    context: ContextOf<typeof swapQuoteAction>,
  ): Promise<ActionResult<SwapQuote>> {
    const { best, quotes, sideOut, amountIn, sideIn } = await this.quoter.quote(
      params,
      context,
      swapQuoteAction,
    );
    const out = (amount: bigint): string => fromBaseUnits(amount, sideOut.pooled.decimals);
    const amountOut = out(best.amountOut);
    const { pool } = best;
    return {
      data: {
        tokenIn: params.tokenIn,
        tokenOut: params.tokenOut,
        amountIn: fromBaseUnits(amountIn, sideIn.token.decimals),
        amountOut,
        route: { pool: pool.name, address: pool.address, router: pool.router, feeBps: pool.feeBps },
        quotes: quotes.map((q) => ({ pool: q.pool.name, amountOut: out(q.amountOut) })),
      },
      message: `${params.amountIn} ${params.tokenIn} buys ${amountOut} ${params.tokenOut} via ${pool.name}`,
    };
  }
}
