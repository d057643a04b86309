import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { MULTICALL3 } from '../../src/actions/portfolio/chain-reader';
import { PortfolioModule } from '../../src/actions/portfolio/portfolio.module';
import type { Portfolio } from '../../src/actions/portfolio/portfolio.service';
import { describeActionConformance } from '../../src/testing';
import { createTestApp, type InjectedJson, postJson } from '../support/app.factory';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import {
  blockAt,
  buildHistory,
  DAY,
  HOUR,
  multicall3RuntimeCode,
  type PortfolioHistory,
  writeChainFile,
} from '../support/portfolio-history.helper';
import { RpcRecorder } from '../support/rpc.recorder';
import { closedPortUrl, FakeUpstream, reply } from '../support/upstream.server';

type Body = Record<string, unknown>;

const SECONDS = { '24h': DAY, '7d': 7n * DAY, '30d': 30n * DAY } as const;
type Timeframe = keyof typeof SECONDS;

/** [then, now, change, change %] per holding, read off the history in portfolio.history.ts. */
const EXPECTED: Record<Timeframe, Record<string, [string, string, string, number | null]>> = {
  '24h': {
    ETH: ['12.5', '12.5', '0', 0],
    TST: ['900', '800.5', '-99.5', -11.06],
    NEW: ['5', '5', '0', 0],
  },
  '7d': {
    ETH: ['10', '12.5', '2.5', 25],
    TST: ['750', '800.5', '50.5', 6.73],
    NEW: ['5', '5', '0', 0],
  },
  '30d': {
    ETH: ['10', '12.5', '2.5', 25],
    TST: ['1000', '800.5', '-199.5', -19.95],
    NEW: ['0', '5', '5', null],
  },
};

const iso = (seconds: bigint): string => new Date(Number(seconds) * 1000).toISOString();

/** The analysis as [then, now, change, change %] per symbol, as EXPECTED writes it. */
const rows = ({ holdings }: Portfolio): Record<string, unknown[]> =>
  Object.fromEntries(
    holdings.map((h) => [h.symbol, [h.balanceThen, h.balanceNow, h.change, h.changePercent]]),
  );

/**
 * Nothing of where the RPC or the price API lives reaches the user. The port is looked for in
 * the texts only: addresses and timestamps elsewhere could hold its digits by chance.
 */
function expectNoAddressOf(body: Body, url: string): void {
  const text = JSON.stringify({ ...body, metadata: undefined });
  expect(text).not.toContain('127.0.0.1');
  expect(text).not.toMatch(/https?:/);
  expect(`${String(body.error)} ${String(body.message)}`).not.toContain(new URL(url).port);
}

describe('Portfolio action (real local EVM)', () => {
  let chain: LocalChain;
  let history: PortfolioHistory;
  let recorder: RpcRecorder;
  let prices: FakeUpstream;
  let dir: string;
  let app: NestFastifyApplication;
  const apps: NestFastifyApplication[] = [];

  const startApp = async (env: Record<string, string> = {}): Promise<NestFastifyApplication> => {
    const started = await createTestApp({
      actions: [PortfolioModule],
      env: { CHAIN_CONFIG_FILE: join(dir, 'chains.json'), EXTERNAL_TIMEOUT_MS: '3000', ...env },
    });
    apps.push(started);
    return started;
  };

  const ask = (
    target: NestFastifyApplication,
    params: Body = { timeframe: '7d' },
    headers: Record<string, string> = {},
  ): Promise<InjectedJson> =>
    postJson(
      target,
      '/api/portfolio',
      { params },
      {
        'x-user-address': history.user.toLowerCase(),
        'x-source-chain': '43113',
        ...headers,
      },
    );

  const head = (): bigint => history.blocks[history.blocks.length - 1].timestamp;

  beforeAll(async () => {
    // The local chain passes for Fuji, the one chain the portfolio declares.
    chain = await startLocalChain({ chainId: 43113 });
    history = await buildHistory(chain);
    recorder = await RpcRecorder.start(chain.rpcUrl);
    prices = await FakeUpstream.start();
    dir = mkdtempSync(join(tmpdir(), 'portfolio-'));
    writeChainFile(join(dir, 'chains.json'), history, recorder.url);
    app = await startApp();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await prices?.close();
    await recorder?.close();
    await chain?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    recorder.reset();
    prices.reset();
  });

  describeActionConformance(
    () => app,
    '/api/portfolio',
    () => ({ valid: [{ params: { timeframe: '7d' }, userAddress: history.user, chainId: 43113 }] }),
  );

  it.each(Object.keys(EXPECTED) as Timeframe[])(
    'compares the balances at the start of %s with those now, exactly',
    async (timeframe) => {
      const { status, body } = await ask(app, { timeframe });
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, statusCode: 200 });
      const data = body.data as Portfolio;
      const from = blockAt(history, head() - SECONDS[timeframe]);
      const to = history.blocks[history.blocks.length - 1];
      expect(data).toMatchObject({
        address: history.user,
        chainId: 43113,
        timeframe,
        from: { block: Number(from.number), timestamp: iso(from.timestamp) },
        to: { block: Number(to.number), timestamp: iso(to.timestamp) },
        totalValueUsd: null,
        pricesAvailable: false,
      });
      expect(rows(data)).toEqual(EXPECTED[timeframe]);
      expect(data.holdings.map((h) => h.token)).toEqual([
        null,
        getAddress(history.tst),
        getAddress(history.fresh),
      ]);
      for (const h of data.holdings) {
        expect(h).toMatchObject({ priceUsd: null, valueUsd: null, share: null });
      }
      expect(body.message).toMatch(/prices are unavailable/i);
    },
  );

  it('publishes its declaration: a data-mode action with a timeframe select', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/portfolio' });
    const { actions } = response.json<{ actions: Body[] }>();
    expect(actions).toEqual([
      expect.objectContaining({
        type: 'dynamic',
        path: '/api/portfolio',
        responseType: 'data',
        params: [
          expect.objectContaining({
            name: 'timeframe',
            type: 'select',
            value: '7d',
            options: [
              expect.objectContaining({ value: '24h' }),
              expect.objectContaining({ value: '7d' }),
              expect.objectContaining({ value: '30d' }),
            ],
          }),
        ],
      }),
    ]);
  });

  it('defaults to 7d and refuses a timeframe outside the list', async () => {
    const { body } = await ask(app, {});
    expect((body.data as Portfolio).timeframe).toBe('7d');
    const refused = await ask(app, { timeframe: '1y' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('timeframe must be one of: 24h, 7d, 30d');
  });

  it('sends the chain calls in JSON-RPC batches (no Multicall3 on this chain)', async () => {
    await ask(app);
    const batched = recorder.requests.filter((calls) => calls.length > 1);
    expect(batched.length).toBeGreaterThan(0);
    const methods = new Set(batched.flat().map((c) => c.method));
    expect([...methods]).toEqual(expect.arrayContaining(['eth_getBalance', 'eth_call']));
    expect(recorder.callTargets).not.toContain(MULTICALL3.toLowerCase());
    // Fewer HTTP requests than calls: the bisection's lookups are the only lone requests.
    expect(recorder.requests.length).toBeLessThan(recorder.calls.length);
  });

  it('answers 400 when no user address is sent, without reading the chain', async () => {
    const { status, body } = await postJson(
      app,
      '/api/portfolio',
      { params: {} },
      {
        'x-source-chain': '43113',
      },
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: 'x-user-address header is required' });
    expect(recorder.requests).toHaveLength(0);
  });

  it.each([
    ['an id', '999'],
    ['a known name', 'ethereum'],
  ])('refuses a chain it does not declare (%s) without reading any chain', async (_case, sent) => {
    const { status, body } = await ask(app, { timeframe: '24h' }, { 'x-source-chain': sent });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      success: false,
      data: { code: 'UNSUPPORTED_CHAIN', invalidParams: ['sourceChain'] },
    });
    expect(body.error).toMatch(
      /^Chain (999|1) is not supported by this action \(sourceChain: 43113\)$/,
    );
    expect(recorder.requests).toHaveLength(0);
  });

  it.each([
    ['no chain', { 'x-source-chain': '' }],
    ['its legacy name', { 'x-source-chain': 'fuji' }],
  ])('runs on its declared chain when the request names %s', async (_case, headers) => {
    const { status, body } = await ask(app, { timeframe: '24h' }, headers);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ chainId: 43113, chain: 'Local test chain' });
  });

  it('answers 500 naming no URL when the RPC refuses connections', async () => {
    const closed = await closedPortUrl();
    const down = await startApp({ RPC_URL_43113: closed });
    const { status, body } = await ask(down);
    expect(status).toBe(500);
    expect(body).toMatchObject({ success: false, statusCode: 500 });
    expect(body.error).toMatch(/RPC .*chain 43113.* could not be reached/);
    expectNoAddressOf(body, closed);
  });

  it.each([
    ['answers HTTP 502', reply.error(502), /RPC .*chain 43113/],
    ['answers too slowly', reply.slow(10_000), /RPC .*chain 43113.* did not answer in time/],
  ])('answers 500 naming no URL when the RPC %s', async (_case, answer, text) => {
    const rpc = await FakeUpstream.start();
    try {
      rpc.route('/', answer);
      const broken = await startApp({ RPC_URL_43113: rpc.base, EXTERNAL_TIMEOUT_MS: '300' });
      const started = performance.now();
      const { status, body } = await ask(broken);
      expect(status).toBe(500);
      expect(body.error).toMatch(text);
      expectNoAddressOf(body, rpc.base);
      // Bounded by the timeout, with a generous margin.
      expect(performance.now() - started).toBeLessThan(300 * 5);
    } finally {
      await rpc.close();
    }
  });

  describe('with a price API', () => {
    const PRICES = { ethereum: { usd: 2000 }, 'test-token': { usd: 0.5 }, new: { usd: 4 } };

    it('adds USD values and shares, and caches the prices', async () => {
      const priced = await startApp({ PRICE_API_URL: `${prices.base}/simple/price` });
      prices.route('/simple/price', reply.json(PRICES));
      const { status, body } = await ask(priced, { timeframe: '7d' });
      expect(status).toBe(200);
      const data = body.data as Portfolio;
      const values = data.holdings.map((h) => [
        h.symbol,
        h.priceUsd,
        h.valueUsd,
        h.changeUsd,
        h.share,
      ]);
      expect(values).toEqual([
        ['ETH', 2000, 25000, 5000, 98.35],
        ['TST', 0.5, 400.25, 25.25, 1.57],
        ['NEW', 4, 20, 0, 0.08],
      ]);
      expect(data).toMatchObject({
        totalValueUsd: 25420.25,
        totalChangeUsd: 5025.25,
        pricesAvailable: true,
      });
      expect(body.message).toContain('$25,420.25');
      expect(body.metadata).toMatchObject({ pricesCached: false });
      const [request] = prices.requests;
      expect(request.query.get('ids')).toBe('ethereum,new,test-token');
      expect(request.query.get('vs_currencies')).toBe('usd');

      const again = await ask(priced, { timeframe: '24h' });
      expect(again.body.metadata).toMatchObject({ pricesCached: true });
      expect(prices.count()).toBe(1);
    });

    it('refuses a price API URL that is not one at boot, naming it', async () => {
      await expect(startApp({ PRICE_API_URL: 'prices.example' })).rejects.toThrow(/PRICE_API_URL/);
    });

    it('still answers, with values null and a message saying so, when the price API fails', async () => {
      const priced = await startApp({ PRICE_API_URL: `${prices.base}/simple/price` });
      prices.route('/simple/price', reply.error(500));
      const { status, body } = await ask(priced, { timeframe: '30d' });
      expect(status).toBe(200);
      const data = body.data as Portfolio;
      expect(data.holdings.map((h) => h.balanceNow)).toEqual(['12.5', '800.5', '5']);
      for (const h of data.holdings)
        expect(h).toMatchObject({ priceUsd: null, valueUsd: null, share: null });
      expect(data).toMatchObject({ totalValueUsd: null, pricesAvailable: false });
      expect(body.message).toMatch(/prices are unavailable/i);
      expect(prices.count('/simple/price')).toBe(1);
      expectNoAddressOf(body, prices.base);
    });
  });

  // Last: it changes the chain's head.
  it('reads through Multicall3 where the chain has it, one by one at blocks before it', async () => {
    await history.testClient.setCode({ address: MULTICALL3, bytecode: multicall3RuntimeCode() });
    const now = head() + HOUR;
    await history.testClient.setNextBlockTimestamp({ timestamp: now });
    await history.testClient.mine({ blocks: 1 });
    const withMulticall = await startApp();
    recorder.reset();
    const { status, body } = await ask(withMulticall, { timeframe: '30d' });
    expect(status).toBe(200);
    const data = body.data as Portfolio;
    expect(rows(data)).toEqual(EXPECTED['30d']);
    expect(data.to.timestamp).toBe(iso(now));
    const targets = recorder.callTargets;
    // Now: symbol, decimals and balances in two aggregate3 calls. Then: Multicall3 did not exist,
    // so one aggregate3 that answers nothing, and the two balances read one by one.
    expect(targets.filter((t) => t === MULTICALL3.toLowerCase())).toHaveLength(3);
    expect(targets.filter((t) => t !== MULTICALL3.toLowerCase()).sort()).toEqual(
      [history.tst, history.fresh].map((a) => a.toLowerCase()).sort(),
    );
  });
});
