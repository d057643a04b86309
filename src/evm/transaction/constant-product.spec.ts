import { choosePool, constantProductOut, type PoolReserves } from './constant-product';

/** Uniswap V2's getAmountOut, as UniswapV2Library writes it. */
const uniswapGetAmountOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);

const E18 = 10n ** 18n;
const pool = (
  name: string,
  reserveIn: bigint,
  reserveOut: bigint,
  feeBps = 30,
): PoolReserves<string> => ({
  pool: name,
  reserveIn,
  reserveOut,
  feeBps,
});

describe('constantProductOut', () => {
  it.each([
    [1n, 1000n, 1000n],
    [E18, 100n * E18, 2000n * 10n ** 6n],
    [123_456_789n, 987_654_321_000n, 5n],
    [10n ** 30n, 10n ** 20n, 10n ** 25n],
  ])('matches Uniswap V2 getAmountOut for %p in against %p/%p', (amountIn, rIn, rOut) => {
    expect(constantProductOut(amountIn, rIn, rOut, 30)).toBe(
      uniswapGetAmountOut(amountIn, rIn, rOut),
    );
  });

  it('is zero with an empty side or no input, and never reaches the whole reserve', () => {
    expect(constantProductOut(E18, 0n, E18, 30)).toBe(0n);
    expect(constantProductOut(E18, E18, 0n, 30)).toBe(0n);
    expect(constantProductOut(0n, E18, E18, 30)).toBe(0n);
    expect(constantProductOut(10n ** 40n, E18, E18, 30)).toBe(E18 - 1n);
  });

  it('charges the pool its own fee', () => {
    const noFee = constantProductOut(E18, 100n * E18, 100n * E18, 0);
    const v2 = constantProductOut(E18, 100n * E18, 100n * E18, 30);
    const high = constantProductOut(E18, 100n * E18, 100n * E18, 100);
    expect(noFee).toBe((E18 * 100n * E18) / (101n * E18));
    expect(noFee > v2 && v2 > high).toBe(true);
  });
});

describe('choosePool', () => {
  it('picks the pool with the best price for a small trade', () => {
    const { best, quotes } = choosePool(
      [pool('alpha', 100n * E18, 2000n * E18), pool('beta', 50n * E18, 1250n * E18)],
      E18,
    );
    expect(best?.pool).toBe('beta');
    expect(quotes.map((q) => q.amountOut)).toEqual([
      uniswapGetAmountOut(E18, 100n * E18, 2000n * E18),
      uniswapGetAmountOut(E18, 50n * E18, 1250n * E18),
    ]);
  });

  it('picks the deeper pool once price impact outweighs the better price', () => {
    const pools = [
      pool('deep', 1000n * E18, 20_000n * E18),
      pool('shallow', 10n * E18, 250n * E18),
    ];
    expect(choosePool(pools, E18 / 10n).best?.pool).toBe('shallow');
    expect(choosePool(pools, 50n * E18).best?.pool).toBe('deep');
  });

  it('breaks a tie in output towards the pool with more of the token bought', () => {
    // Same price, twice the depth: both round down to 9 for 10 in.
    const a = pool('a', 1000n, 1000n, 0);
    const b = pool('b', 2000n, 2000n, 0);
    const amountIn = 10n;
    expect(constantProductOut(amountIn, 1000n, 1000n, 0)).toBe(9n);
    expect(constantProductOut(amountIn, 2000n, 2000n, 0)).toBe(9n);
    expect(choosePool([a, b], amountIn).best?.pool).toBe('b');
    expect(choosePool([b, a], amountIn).best?.pool).toBe('b');
  });

  it('keeps the first listed of two identical pools', () => {
    const { best } = choosePool(
      [pool('first', 10n * E18, 10n * E18), pool('second', 10n * E18, 10n * E18)],
      E18,
    );
    expect(best?.pool).toBe('first');
  });

  it('ignores pools without liquidity, even listed first with a tempting side', () => {
    const { best, quotes } = choosePool(
      [pool('drained', 0n, 10n ** 30n), pool('one-sided', 10n ** 30n, 0n), pool('live', E18, E18)],
      E18,
    );
    expect(best?.pool).toBe('live');
    expect(quotes.map((q) => q.pool)).toEqual(['live']);
  });

  it('has no best pool when none has liquidity', () => {
    expect(choosePool([pool('empty', 0n, 0n)], E18)).toEqual({ best: undefined, quotes: [] });
    expect(choosePool([], E18)).toEqual({ best: undefined, quotes: [] });
  });

  it('reports a zero output for a trade too small for every pool', () => {
    const { best } = choosePool(
      [pool('a', 10n ** 24n, 10n ** 6n), pool('b', 10n ** 24n, 2n * 10n ** 6n)],
      1000n,
    );
    expect(best?.amountOut).toBe(0n);
  });

  it('prefers the cheaper fee between otherwise equal pools', () => {
    const { best } = choosePool(
      [pool('v2', E18 * 10n, E18 * 10n, 30), pool('cheap', E18 * 10n, E18 * 10n, 5)],
      E18,
    );
    expect(best?.pool).toBe('cheap');
  });
});
