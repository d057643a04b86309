import { parseUnits } from 'viem';
import { analyseHoldings, type HoldingReading, percentOf } from './portfolio-analysis';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

const native = (then: string, now: string): HoldingReading => ({
  symbol: 'ETH',
  token: null,
  decimals: 18,
  priceId: 'ethereum',
  then: parseUnits(then, 18),
  now: parseUnits(now, 18),
});

const usdc = (then: string, now: string): HoldingReading => ({
  symbol: 'USDC',
  token: TOKEN,
  decimals: 6,
  priceId: 'usd-coin',
  then: parseUnits(then, 6),
  now: parseUnits(now, 6),
});

describe('percentOf', () => {
  it.each<[bigint, bigint, number | null]>([
    [25n, 100n, 25],
    [-1n, 3n, -33.33],
    [2n, 3n, 66.67],
    [1n, 8n, 12.5],
    [1n, 80_000n, 0],
    [-1n, 80_000n, 0],
    [1n, 20_000n, 0.01],
    [300n, 100n, 300],
    [0n, 0n, 0],
    [5n, 0n, null],
  ])('%p of %p is %p %%', (part, whole, percent) => {
    expect(percentOf(part, whole)).toBe(percent);
  });

  it('is exact beyond double precision', () => {
    const whole = 10n ** 30n;
    expect(percentOf(whole / 3n, whole)).toBe(33.33);
    expect(percentOf(whole + 1n, whole)).toBe(100);
  });
});

describe('analyseHoldings', () => {
  it('gives balances then and now as exact decimal strings, with change and percent', () => {
    const { holdings } = analyseHoldings(
      [native('1.5', '1.000000000000000001'), usdc('0', '250.25'), usdc('10', '10')],
      undefined,
    );
    expect(holdings[0]).toMatchObject({
      symbol: 'ETH',
      token: null,
      balanceThen: '1.5',
      balanceNow: '1.000000000000000001',
      change: '-0.499999999999999999',
      changePercent: -33.33,
    });
    expect(holdings[1]).toMatchObject({
      token: TOKEN,
      decimals: 6,
      balanceThen: '0',
      balanceNow: '250.25',
      change: '250.25',
      changePercent: null,
    });
    expect(holdings[2]).toMatchObject({ change: '0', changePercent: 0 });
  });

  it('leaves every value null without prices', () => {
    const result = analyseHoldings([native('1', '2'), usdc('1', '2')], undefined);
    for (const h of result.holdings) {
      expect(h).toMatchObject({ priceUsd: null, valueUsd: null, changeUsd: null, share: null });
    }
    expect(result).toMatchObject({ totalValueUsd: null, totalChangeUsd: null, unpriced: [] });
  });

  it('adds values, changes at the current price and shares with prices', () => {
    const result = analyseHoldings([native('2', '1.5'), usdc('100', '1000')], {
      ethereum: 2000,
      'usd-coin': 1,
    });
    expect(result.holdings[0]).toMatchObject({
      priceUsd: 2000,
      valueUsd: 3000,
      changeUsd: -1000,
      share: 75,
    });
    expect(result.holdings[1]).toMatchObject({
      priceUsd: 1,
      valueUsd: 1000,
      changeUsd: 900,
      share: 25,
    });
    expect(result).toMatchObject({ totalValueUsd: 4000, totalChangeUsd: -100, unpriced: [] });
  });

  it('shares among priced holdings only, and lists the unpriced ones', () => {
    const result = analyseHoldings([native('1', '1'), usdc('0', '30')], { 'usd-coin': 1 });
    expect(result.holdings[0]).toMatchObject({ priceUsd: null, valueUsd: null, share: null });
    expect(result.holdings[1]).toMatchObject({ valueUsd: 30, share: 100 });
    expect(result).toMatchObject({ totalValueUsd: 30, unpriced: ['ETH'] });
  });

  it('rounds values to cents and shares to 2 decimals', () => {
    const result = analyseHoldings([native('0', '0.001'), usdc('0', '2')], {
      ethereum: 3333.333,
      'usd-coin': 0.999,
    });
    expect(result.holdings.map((h) => h.valueUsd)).toEqual([3.33, 2]);
    expect(result.holdings.map((h) => h.share)).toEqual([62.52, 37.48]);
  });

  it('gives an empty portfolio with prices a total of 0 and shares of 0', () => {
    const result = analyseHoldings([native('1', '0')], { ethereum: 2000 });
    expect(result.holdings[0]).toMatchObject({ valueUsd: 0, share: 0, changeUsd: -2000 });
    expect(result.totalValueUsd).toBe(0);
  });
});
