import { type Address, formatUnits } from 'viem';
import type { UsdPrices } from './price.client';

/** One asset's balances as read from the chain, in its smallest unit. */
export interface HoldingReading {
  symbol: string;
  /** The ERC-20 contract; null for the chain's native currency. */
  token: Address | null;
  decimals: number;
  /** The id the price API knows the asset by. */
  priceId: string;
  then: bigint;
  now: bigint;
}

/** One asset of the analysis. Balances are exact decimal strings in whole units. */
export interface Holding {
  symbol: string;
  token: Address | null;
  decimals: number;
  balanceThen: string;
  balanceNow: string;
  change: string;
  /** Rounded to 2 decimals; null when the balance grew from zero (no finite percentage). */
  changePercent: number | null;
  /** The current price; null when prices are unavailable or the API does not know the asset. */
  priceUsd: number | null;
  /** The balance now at the current price, in cents precision. */
  valueUsd: number | null;
  /** The change in balance at the current price: what was added or removed, not price moves. */
  changeUsd: number | null;
  /** Percent of the priced portfolio's value, rounded to 2 decimals. */
  share: number | null;
}

export interface PortfolioTotals {
  holdings: Holding[];
  totalValueUsd: number | null;
  totalChangeUsd: number | null;
  /** Assets that have no price although prices were available. */
  unpriced: string[];
}

const cents = (value: number): number => Math.round(value * 100) / 100;

/** `part / whole` in percent, rounded half away from zero to 2 decimals, computed exactly. */
export function percentOf(part: bigint, whole: bigint): number | null {
  if (whole === 0n) return part === 0n ? 0 : null;
  const negative = part < 0n !== whole < 0n;
  const num = (part < 0n ? -part : part) * 10_000n;
  const den = whole < 0n ? -whole : whole;
  const rounded = (num * 2n + den) / (den * 2n);
  const value = Number(rounded) / 100;
  return negative && value !== 0 ? -value : value;
}

/** Through the exact decimal text, so large balances lose no more than a double must. */
const usd = (amount: bigint, decimals: number, price: number): number =>
  Number(formatUnits(amount, decimals)) * price;

/**
 * Balances then and now, their change, and — with prices — their value and share. Pure: the
 * numbers come from the chain and the price API, nothing here reads either.
 */
export function analyseHoldings(
  readings: readonly HoldingReading[],
  prices: UsdPrices | undefined,
): PortfolioTotals {
  const priceOf = (reading: HoldingReading): number | null =>
    prices && Object.hasOwn(prices, reading.priceId) ? prices[reading.priceId] : null;
  const values = readings.map((reading) => {
    const price = priceOf(reading);
    return price === null ? null : usd(reading.now, reading.decimals, price);
  });
  const priced = values.filter((value): value is number => value !== null);
  const total = prices && priced.length > 0 ? priced.reduce((sum, v) => sum + v, 0) : null;

  const holdings = readings.map((reading, index): Holding => {
    const price = priceOf(reading);
    const value = values[index];
    const change = reading.now - reading.then;
    return {
      symbol: reading.symbol,
      token: reading.token,
      decimals: reading.decimals,
      balanceThen: formatUnits(reading.then, reading.decimals),
      balanceNow: formatUnits(reading.now, reading.decimals),
      change: formatUnits(change, reading.decimals),
      changePercent: percentOf(change, reading.then),
      priceUsd: price,
      valueUsd: value === null ? null : cents(value),
      changeUsd: price === null ? null : cents(usd(change, reading.decimals, price)),
      share: value === null || total === null ? null : shareOf(value, total),
    };
  });
  const changes = holdings.flatMap((h, i) =>
    h.priceUsd === null ? [] : [usd(readings[i].now - readings[i].then, h.decimals, h.priceUsd)],
  );
  return {
    holdings,
    totalValueUsd: total === null ? null : cents(total),
    totalChangeUsd: total === null ? null : cents(changes.reduce((sum, v) => sum + v, 0)),
    unpriced: prices ? holdings.filter((h) => h.priceUsd === null).map((h) => h.symbol) : [],
  };
}

/** An empty portfolio (every value zero) has no meaningful shares: each is 0. */
const shareOf = (value: number, total: number): number =>
  total === 0 ? 0 : Math.round((value / total) * 10_000) / 100;
