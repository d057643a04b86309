import { Injectable } from '@nestjs/common';
import { type Address, BaseError } from 'viem';
import { type ChainInfo, ChainRpc } from '../../evm';
import { ChainRegistry, type ActionResult, type RequestContext } from '../../kit';
import { findBlockAtTime, type BlockHeader } from './block-at-time';
import { type ChainReader, TokenReadError, ViemChainReader } from './chain-reader';
import { type PortfolioChain, toPortfolioChain } from './portfolio-chain';
import { analyseHoldings, type Holding, type HoldingReading } from './portfolio-analysis';
import { portfolioAction, TIMEFRAMES, type Timeframe } from './portfolio.action';
import { PriceClient } from './price.client';

export interface BlockRef {
  block: number;
  /** ISO 8601, UTC. */
  timestamp: string;
}

export interface Portfolio {
  address: Address;
  chainId: number;
  chain: string;
  timeframe: Timeframe;
  /** The last block at or before the start of the period (genesis for a younger chain). */
  from: BlockRef;
  /** The chain's latest block: "now" is the chain's own clock. */
  to: BlockRef;
  holdings: Holding[];
  totalValueUsd: number | null;
  totalChangeUsd: number | null;
  pricesAvailable: boolean;
}

interface Snapshot {
  from: BlockHeader;
  to: BlockHeader;
  readings: HoldingReading[];
}

/**
 * The user's native and token balances on the source chain at the start of the period and now,
 * their change and, when a price API answers, their value. Chain failures are 500s that never
 * name the RPC; a failed price API only removes the values.
 */
@Injectable()
export class PortfolioService {
  /** One reader per chain: each remembers whether Multicall3 is deployed there. */
  private readonly readers = new Map<number, ChainReader>();

  constructor(
    private readonly chains: ChainRegistry,
    private readonly rpc: ChainRpc,
    private readonly prices: PriceClient,
  ) {}

  /** On the request's chain, or the declared one; the registry refuses any other (400). */
  async analyse(
    owner: Address,
    timeframe: Timeframe,
    context: RequestContext,
  ): Promise<ActionResult<Portfolio>> {
    const info = this.chains.forRequest(portfolioAction, context);
    const chain = toPortfolioChain(info);
    const reader = this.readerFor(info);
    const [snapshot, quote] = await Promise.all([
      this.onChain(info, () => readSnapshot(reader, chain, owner, TIMEFRAMES[timeframe])),
      this.prices.usd(priceIds(chain)),
    ]);
    const totals = analyseHoldings(snapshot.readings, quote?.prices);
    const data: Portfolio = {
      address: owner,
      chainId: chain.chainId,
      chain: chain.name,
      timeframe,
      from: blockRef(snapshot.from),
      to: blockRef(snapshot.to),
      holdings: totals.holdings,
      totalValueUsd: totals.totalValueUsd,
      totalChangeUsd: totals.totalChangeUsd,
      pricesAvailable: totals.totalValueUsd !== null,
    };
    return {
      data,
      message: summarise(data, totals.unpriced),
      metadata: quote ? { pricesCached: quote.cached } : undefined,
    };
  }

  protected readerFor(info: ChainInfo): ChainReader {
    let reader = this.readers.get(info.chainId);
    if (!reader) {
      reader = new ViemChainReader(this.chains.client(info));
      this.readers.set(info.chainId, reader);
    }
    return reader;
  }

  /**
   * viem's messages carry the RPC URL (often with a key in it): they never reach the user; the
   * shared ChainRpc turns them into the 500 every action shows for a failing node.
   */
  private async onChain<T>(info: ChainInfo, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof BaseError || error instanceof TokenReadError) {
        throw this.rpc.failure(info, 'Portfolio read', error);
      }
      throw error;
    }
  }
}

/** Reads run concurrently, so the batching transport sends them together. */
async function readSnapshot(
  reader: ChainReader,
  chain: PortfolioChain,
  owner: Address,
  seconds: number,
): Promise<Snapshot> {
  const tokens = chain.tokens.map((token) => token.address);
  const to = await reader.latestBlock();
  const [from, now, metadata] = await Promise.all([
    findBlockAtTime(reader, to, to.timestamp - BigInt(seconds)),
    reader.balances(owner, tokens, to.number),
    reader.tokenMetadata(tokens),
  ]);
  const then = from.number === to.number ? now : await reader.balances(owner, tokens, from.number);
  const readings: HoldingReading[] = [
    {
      symbol: chain.native.symbol,
      token: null,
      decimals: chain.native.decimals,
      priceId: chain.native.priceId,
      then: then.native,
      now: now.native,
    },
    ...chain.tokens.map((token, i) => ({
      symbol: metadata[i].symbol ?? token.symbol,
      token: token.address,
      decimals: metadata[i].decimals ?? token.decimals,
      priceId: token.priceId,
      then: then.tokens[i],
      now: now.tokens[i],
    })),
  ];
  return { from, to, readings };
}

const priceIds = (chain: PortfolioChain): string[] => [
  chain.native.priceId,
  ...chain.tokens.map((token) => token.priceId),
];

const blockRef = ({ number, timestamp }: BlockHeader): BlockRef => ({
  block: Number(number),
  timestamp: new Date(Number(timestamp) * 1000).toISOString(),
});

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

function summarise(data: Portfolio, unpriced: readonly string[]): string {
  const count = `${data.holdings.length} holding${data.holdings.length === 1 ? '' : 's'}`;
  const head = `${count} on ${data.chain} over the last ${data.timeframe}`;
  if (data.totalValueUsd === null) {
    return `${head}. Prices are unavailable, so USD values are not shown.`;
  }
  const change = data.totalChangeUsd ?? 0;
  const sign = change > 0 ? '+' : change < 0 ? '-' : '';
  const worth = `${head}, worth ${USD.format(data.totalValueUsd)} (${sign}${USD.format(Math.abs(change))} in balance changes at today's prices)`;
  return unpriced.length > 0 ? `${worth}. No price for ${unpriced.join(', ')}.` : `${worth}.`;
}
