/** One pool's reserves, oriented for a swap of `tokenIn` into `tokenOut`. */
export interface PoolReserves<P> {
  pool: P;
  reserveIn: bigint;
  reserveOut: bigint;
  /** Swap fee in basis points (30 = 0.3 %). */
  feeBps: number;
}

export interface PoolQuote<P> extends PoolReserves<P> {
  amountOut: bigint;
}

const BPS = 10_000n;

/**
 * Output of a constant-product (x·y=k) swap after the fee, rounded down as Uniswap V2's
 * `getAmountOut` does (with feeBps 30 the result equals its 997/1000 formula exactly).
 */
export function constantProductOut(
  amountIn: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feeBps: number,
): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const inWithFee = amountIn * (BPS - BigInt(feeBps));
  return (inWithFee * reserveOut) / (reserveIn * BPS + inWithFee);
}

/**
 * Quotes every pool that has liquidity on both sides and picks the highest output. Ties go to
 * the deeper pool (more of `tokenOut`, so less drift before the swap lands), then to the pool
 * listed first. `best` is undefined when no pool has liquidity.
 */
export function choosePool<P>(
  pools: readonly PoolReserves<P>[],
  amountIn: bigint,
): { best?: PoolQuote<P>; quotes: PoolQuote<P>[] } {
  const quotes = pools
    .filter((p) => p.reserveIn > 0n && p.reserveOut > 0n)
    .map((p) => ({
      ...p,
      amountOut: constantProductOut(amountIn, p.reserveIn, p.reserveOut, p.feeBps),
    }));
  let best: PoolQuote<P> | undefined;
  for (const quote of quotes) {
    if (
      !best ||
      quote.amountOut > best.amountOut ||
      (quote.amountOut === best.amountOut && quote.reserveOut > best.reserveOut)
    ) {
      best = quote;
    }
  }
  return { best, quotes };
}
