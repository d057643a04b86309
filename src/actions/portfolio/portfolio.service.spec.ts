import { HttpStatus, Logger } from '@nestjs/common';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, HttpRequestError, parseUnits, TimeoutError } from 'viem';
import { chainsUnderTest } from '../../testing/chain-registry.helper';
import type { ChainInfo } from '../../evm/chains';
import { ActionException, type RequestContext } from '../../kit';
import { ChainRpc } from '../../evm/transaction';
import type { BlockHeader } from './block-at-time';
import {
  type Balances,
  type ChainReader,
  type TokenMetadata,
  TokenReadError,
} from './chain-reader';
import { PortfolioService } from './portfolio.service';
import type { PriceClient, PriceQuote } from './price.client';

const USER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const DAY = 86_400;
const NOW = 1_800_000_000;

/** The declared chain (Fuji), as a chain file describes it to the portfolio. */
const CHAIN_FILE = join(mkdtempSync(join(tmpdir(), 'portfolio-')), 'chains.json');
writeFileSync(
  CHAIN_FILE,
  JSON.stringify({
    chains: {
      43113: {
        name: 'Testnet',
        rpcUrl: 'https://rpc.example.com/key/SECRET',
        nativeCurrency: { symbol: 'ETH', decimals: 18, priceId: 'ethereum' },
        tokens: { CFG: { address: TOKEN, decimals: 6, priceId: 'test-token' } },
      },
    },
  }),
);

/** Blocks one hour apart over 40 days; balances change at known blocks. */
class FakeReader implements ChainReader {
  readonly balanceBlocks: bigint[] = [];
  failure?: Error;
  private readonly start = NOW - 40 * DAY;
  head = BigInt(40 * 24);

  latestBlock(): Promise<BlockHeader> {
    return this.answer(() => this.header(this.head));
  }

  block(number: bigint): Promise<BlockHeader> {
    return this.answer(() => this.header(number));
  }

  metadata: TokenMetadata = { symbol: 'TST', decimals: 6 };

  tokenMetadata(tokens: readonly Address[]): Promise<TokenMetadata[]> {
    return this.answer(() => tokens.map(() => this.metadata));
  }

  balances(_owner: Address, _tokens: readonly Address[], block: bigint): Promise<Balances> {
    this.balanceBlocks.push(block);
    // Native: 3 ETH until 10 days ago, 2 ETH since. Token: 0 until 2 days ago, then 150.5.
    const age = (NOW - this.start) / 3600 - Number(block);
    return this.answer(() => ({
      native: parseUnits(age >= 10 * 24 ? '3' : '2', 18),
      tokens: [age >= 2 * 24 ? 0n : parseUnits('150.5', 6)],
    }));
  }

  private header(number: bigint): BlockHeader {
    return { number, timestamp: BigInt(this.start) + number * 3600n };
  }

  private answer<T>(value: () => T): Promise<T> {
    return this.failure ? Promise.reject(this.failure) : Promise.resolve(value());
  }
}

class FakePrices {
  quote: PriceQuote | undefined;
  readonly asked: string[][] = [];

  usd(ids: readonly string[]): Promise<PriceQuote | undefined> {
    this.asked.push([...ids]);
    return Promise.resolve(this.quote);
  }
}

/** The RPC's own failure text is the shared ChainRpc's business: here, a marker that it was used. */
class MarkedRpc extends ChainRpc {
  override failure(chain: ChainInfo, _what: string, error: unknown): ActionException {
    return new ActionException(HttpStatus.INTERNAL_SERVER_ERROR, `chain ${chain.chainId} failed`, {
      data: { cause: (error as Error).name },
    });
  }
}

/** The service over the test's reader instead of one that calls a node. */
class ServiceUnderTest extends PortfolioService {
  constructor(
    private readonly reader: ChainReader,
    prices: FakePrices,
  ) {
    const { registry, rpc } = chainsUnderTest({ CHAIN_CONFIG_FILE: CHAIN_FILE }, MarkedRpc);
    super(registry, rpc, prices as unknown as PriceClient);
  }

  protected override readerFor(): ChainReader {
    return this.reader;
  }
}

const ON_FUJI: RequestContext = { requestId: 'r', sourceChain: 43113 };

describe('PortfolioService', () => {
  let reader: FakeReader;
  let prices: FakePrices;
  let service: PortfolioService;

  beforeAll(() => {
    Logger.overrideLogger(false);
  });
  beforeEach(() => {
    reader = new FakeReader();
    prices = new FakePrices();
    service = new ServiceUnderTest(reader, prices);
  });

  it('compares the balances at the start of the period with those now', async () => {
    const { data, message } = await service.analyse(USER, '7d', ON_FUJI);
    expect(data).toMatchObject({
      address: USER,
      chainId: 43113,
      chain: 'Testnet',
      timeframe: '7d',
      from: { block: 33 * 24, timestamp: new Date((NOW - 7 * DAY) * 1000).toISOString() },
      to: { block: 40 * 24, timestamp: new Date(NOW * 1000).toISOString() },
      totalValueUsd: null,
      pricesAvailable: false,
    });
    expect(data?.holdings).toEqual([
      expect.objectContaining({
        symbol: 'ETH',
        token: null,
        balanceThen: '2',
        balanceNow: '2',
        change: '0',
        changePercent: 0,
      }),
      expect.objectContaining({
        symbol: 'TST',
        token: TOKEN,
        decimals: 6,
        balanceThen: '0',
        balanceNow: '150.5',
        change: '150.5',
        changePercent: null,
        valueUsd: null,
      }),
    ]);
    expect(message).toMatch(/prices are unavailable/i);
    expect(reader.balanceBlocks.sort()).toEqual([BigInt(33 * 24), BigInt(40 * 24)]);
  });

  it('reaches back 30 days for 30d', async () => {
    const { data } = await service.analyse(USER, '30d', ON_FUJI);
    expect(data?.from.block).toBe(10 * 24);
    expect(data?.holdings[0]).toMatchObject({
      balanceThen: '3',
      change: '-1',
      changePercent: -33.33,
    });
  });

  it('adds values and shares when prices are known', async () => {
    prices.quote = { prices: { ethereum: 1000, 'test-token': 2 }, cached: true };
    const { data, message, metadata } = await service.analyse(USER, '24h', ON_FUJI);
    expect(prices.asked).toEqual([['ethereum', 'test-token']]);
    expect(data?.holdings.map((h) => [h.valueUsd, h.share])).toEqual([
      [2000, 86.92],
      [301, 13.08],
    ]);
    expect(data).toMatchObject({ totalValueUsd: 2301, totalChangeUsd: 0, pricesAvailable: true });
    expect(message).toContain('$2,301.00');
    expect(metadata).toEqual({ pricesCached: true });
  });

  it('names the holdings the price API does not know', async () => {
    prices.quote = { prices: { ethereum: 1000 }, cached: false };
    const { data, message } = await service.analyse(USER, '24h', ON_FUJI);
    expect(data?.holdings.map((h) => h.share)).toEqual([100, null]);
    expect(message).toMatch(/worth \$2,000\.00 .*No price for TST\.$/);
  });

  it('reads one block when the chain is younger than the period', async () => {
    reader.head = 0n;
    const { data } = await service.analyse(USER, '24h', ON_FUJI);
    expect(data?.from).toEqual(data?.to);
    expect(data?.from.block).toBe(0);
    expect(reader.balanceBlocks).toEqual([0n]);
  });

  it("falls back to the chain file's symbol and decimals for a token that does not say them", async () => {
    reader.metadata = {};
    const { data } = await service.analyse(USER, '24h', ON_FUJI);
    expect(data?.holdings[1]).toMatchObject({ symbol: 'CFG', decimals: 6, balanceNow: '150.5' });
  });

  it.each<[string, Error]>([
    [
      'a failed request',
      new HttpRequestError({ url: 'https://rpc.example/v3/secret-key', details: 'fetch failed' }),
    ],
    ['a timeout', new TimeoutError({ body: {}, url: 'https://rpc.example/v3/secret-key' })],
    ['a token that does not answer balanceOf', new TokenReadError(TOKEN)],
  ])('answers the shared chain failure on %s', async (_case, failure) => {
    reader.failure = failure;
    const error = await service.analyse(USER, '7d', ON_FUJI).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ActionException);
    expect((error as ActionException).error).toBe('chain 43113 failed');
    expect((error as ActionException).details.data).toEqual({ cause: failure.name });
  });

  it('lets a programming error propagate', async () => {
    const bug = new TypeError('bug');
    reader.failure = bug;
    await expect(service.analyse(USER, '7d', ON_FUJI)).rejects.toBe(bug);
  });
});
