import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Address, decodeFunctionData, getAddress, type HDAccount, parseEventLogs } from 'viem';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import { SWAP_EXACT_TOKENS_FOR_TOKENS } from '../../src/actions/best-swap/uniswap-v2.abi';
import { loadChainsConfig } from '../../src/evm/chains/chains.config';
import { describeActionConformance } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { balanceOf, UNISWAP_V2 } from '../../src/testing/evm/contracts';
import {
  type DexFixture,
  deployDexFixture,
  fixtureChainEntry,
  fundUser,
  writeChainFile,
} from '../../src/testing/evm/dex-fixture';
import { createEmptyPool } from '../../src/testing/evm/empty-pool';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { approveThenRun, closedRpcUrl, runAction, stalledRpc } from '../support/platform';
import { deserializeTransaction, signAndSend } from '../../src/testing/evm/wallet';

const FUJI = 43113;
const PATH = '/api/best-swap';
/** The request's headers, given the wallet header of the funded user. */
type Headers = (user: Record<string, string>) => Record<string, string>;
interface SwapArgs {
  pool: { name: string; address: Address; router: Address };
  expectedAmountOut: string;
}

/** Uniswap V2's getAmountOut, as UniswapV2Library writes it. */
const getAmountOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);

/** The local chain passes for Fuji, the chain the action declares. */
describe('Best swap on a local EVM', () => {
  let chain: LocalChain;
  let fixture: DexFixture;
  let user: HDAccount;
  let app: NestFastifyApplication;
  let jsonApp: NestFastifyApplication;
  let downApp: NestFastifyApplication;
  let stalledApp: NestFastifyApplication;
  let estimateApp: NestFastifyApplication;
  /** Lists an empty USDC/USDT pool in place of the fixture's: what NO_LIQUIDITY answers. */
  let emptyApp: NestFastifyApplication;
  let stalled: Awaited<ReturnType<typeof stalledRpc>>;
  const wallet = (): Record<string, string> => ({ 'x-wallet-address': user.address });

  /** Reserves of a pair oriented from `tokenIn` (V2 pairs order their tokens by address). */
  async function reservesOf(
    pair: Address,
    tokenIn: Address,
    tokenOut: Address,
  ): Promise<[bigint, bigint]> {
    const [r0, r1] = (await chain.publicClient.readContract({
      address: pair,
      abi: UNISWAP_V2.pair.abi,
      functionName: 'getReserves',
    })) as [bigint, bigint, number];
    return tokenIn.toLowerCase() < tokenOut.toLowerCase() ? [r0, r1] : [r1, r0];
  }

  /** Pairs that emitted a Swap event in the receipt. */
  function swappedPairs(logs: Parameters<typeof parseEventLogs>[0]['logs']): Address[] {
    return parseEventLogs({ abi: UNISWAP_V2.pair.abi, logs, eventName: 'Swap' }).map((log) =>
      getAddress(log.address),
    );
  }

  beforeAll(async () => {
    chain = await startLocalChain({ chainId: FUJI });
    fixture = await deployDexFixture(chain);
    user = chain.accounts[1];
    await fundUser(chain, fixture, user);
    const entry = fixtureChainEntry(fixture, {
      name: 'Local Fuji',
      rpcUrl: chain.rpcUrl,
      native: 'AVAX',
      wrapped: 'WAVAX',
    });
    const env = { CHAIN_CONFIG_FILE: writeChainFile({ [FUJI]: entry }) };
    const actions = [BestSwapModule];
    const emptyPool = await createEmptyPool(chain, fixture, fixture.venues.beta, [
      fixture.usdc,
      fixture.usdt,
    ]);
    const pools = (entry.pools as { tokens: string[] }[]).filter((p) => !p.tokens.includes('USDT'));
    const emptyEntry = {
      ...entry,
      pools: [
        ...pools,
        { name: 'Beta USDC/USDT', address: emptyPool, router: 'beta', tokens: ['USDC', 'USDT'] },
      ],
    };
    stalled = await stalledRpc();
    [app, jsonApp, downApp, stalledApp, estimateApp, emptyApp] = await Promise.all([
      createTestApp({ env, actions }),
      createTestApp({ env: { ...env, TX_SERIALIZATION: 'json' }, actions }),
      createTestApp({ env: { ...env, RPC_URL_43113: await closedRpcUrl() }, actions }),
      createTestApp({
        env: { ...env, RPC_URL_43113: stalled.url, EXTERNAL_TIMEOUT_MS: '300' },
        actions,
      }),
      createTestApp({ env: { ...env, TX_FILL: 'estimate' }, actions }),
      createTestApp({
        env: { CHAIN_CONFIG_FILE: writeChainFile({ [FUJI]: emptyEntry }) },
        actions,
      }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(
      [app, jsonApp, downApp, stalledApp, estimateApp, emptyApp].map((a) => a?.close()),
    );
    await stalled?.stop();
    await chain?.stop();
  });

  describeActionConformance(() => app, '/api/best-swap');
  describe('with TX_SERIALIZATION=json', () => {
    describeActionConformance(() => jsonApp, '/api/best-swap');
  });

  it('deploys the fixture where the default chain file says the local chain has it', () => {
    const local = loadChainsConfig({ NODE_ENV: 'test' }).chains.get(31337)!;
    expect(local.tokens.get('WETH')?.address).toBe(getAddress(fixture.wrapped));
    expect(local.tokens.get('USDC')?.address).toBe(getAddress(fixture.usdc));
    expect(local.tokens.get('USDT')?.address).toBe(getAddress(fixture.usdt));
    expect(local.pools.map((p) => [p.name, p.address, p.router])).toEqual([
      [
        'Alpha WETH/USDC',
        getAddress(fixture.pools.alphaWrappedUsdc),
        getAddress(fixture.venues.alpha.router),
      ],
      [
        'Beta WETH/USDC',
        getAddress(fixture.pools.betaWrappedUsdc),
        getAddress(fixture.venues.beta.router),
      ],
      [
        'Alpha USDC/USDT',
        getAddress(fixture.pools.alphaUsdcUsdt),
        getAddress(fixture.venues.alpha.router),
      ],
    ]);
  });

  it('sells through the pool that pays more, and the swap lands there for the quoted amount', async () => {
    const amountIn = 10n ** 18n;
    const [alphaIn, alphaOut] = await reservesOf(
      fixture.pools.alphaWrappedUsdc,
      fixture.wrapped,
      fixture.usdc,
    );
    const [betaIn, betaOut] = await reservesOf(
      fixture.pools.betaWrappedUsdc,
      fixture.wrapped,
      fixture.usdc,
    );
    const expected = getAmountOut(amountIn, betaIn, betaOut);
    expect(expected).toBeGreaterThan(getAmountOut(amountIn, alphaIn, alphaOut));

    const { approval, answer } = await approveThenRun(chain, user, app, PATH, {
      tokenIn: 'WAVAX',
      tokenOut: 'USDC',
      amountIn: '1',
    });
    expect(approval.body.params).toEqual({
      functionName: 'approve',
      args: expect.objectContaining({
        spender: getAddress(fixture.venues.beta.router),
        amount: amountIn.toString(),
        token: 'WAVAX',
        step: 1,
        steps: 2,
      }),
    });
    const { status, body } = answer;
    expect(status).toBe(200);
    const args = (body.params as { args: SwapArgs }).args;
    expect(args.pool).toEqual(
      expect.objectContaining({
        name: 'Beta WAVAX/USDC',
        address: getAddress(fixture.pools.betaWrappedUsdc),
      }),
    );
    expect(args.expectedAmountOut).toBe(expected.toString());
    const tx = deserializeTransaction(body.serializedTransaction as string);
    const [sent, amountOutMin, path, to] = decodeFunctionData({
      abi: [SWAP_EXACT_TOKENS_FOR_TOKENS],
      data: tx.data!,
    }).args;
    expect([sent, amountOutMin, path, to]).toEqual([
      amountIn,
      (expected * 995n) / 1000n,
      [getAddress(fixture.wrapped), getAddress(fixture.usdc)],
      user.address,
    ]);

    const usdcBefore = await balanceOf(chain, fixture.usdc, user.address);
    const wrappedBefore = await balanceOf(chain, fixture.wrapped, user.address);
    const { receipt } = await signAndSend(chain, user, body.serializedTransaction as string);
    expect(receipt.status).toBe('success');
    expect(swappedPairs(receipt.logs)).toEqual([getAddress(fixture.pools.betaWrappedUsdc)]);
    const received = (await balanceOf(chain, fixture.usdc, user.address)) - usdcBefore;
    expect(received).toBe(expected);
    expect(received).toBeGreaterThanOrEqual(amountOutMin);
    expect(wrappedBefore - (await balanceOf(chain, fixture.wrapped, user.address))).toBe(amountIn);
    expect(await reservesOf(fixture.pools.alphaWrappedUsdc, fixture.wrapped, fixture.usdc)).toEqual(
      [alphaIn, alphaOut],
    );
  });

  it('buys through the other pool when the direction turns, from the wagmi JSON form', async () => {
    const amountIn = 100n * 10n ** 6n;
    const [alphaIn, alphaOut] = await reservesOf(
      fixture.pools.alphaWrappedUsdc,
      fixture.usdc,
      fixture.wrapped,
    );
    const expected = getAmountOut(amountIn, alphaIn, alphaOut);
    const { answer } = await approveThenRun(chain, user, jsonApp, PATH, {
      tokenIn: 'USDC',
      tokenOut: 'WAVAX',
      amountIn: '100',
      slippage: '1',
    });
    const { status, body } = answer;
    expect(status).toBe(200);
    expect(body.serializedTransaction).toMatch(/^\{"type":"eip1559"/);
    const args = (body.params as { args: SwapArgs }).args;
    expect(args.pool.address).toBe(getAddress(fixture.pools.alphaWrappedUsdc));
    expect(args.expectedAmountOut).toBe(expected.toString());
    const amountOutMin = decodeFunctionData({
      abi: [SWAP_EXACT_TOKENS_FOR_TOKENS],
      data: deserializeTransaction(body.serializedTransaction as string).data!,
    }).args[1];
    expect(amountOutMin).toBe((expected * 99n) / 100n);

    const before = await balanceOf(chain, fixture.wrapped, user.address);
    const { receipt } = await signAndSend(chain, user, body.serializedTransaction as string);
    expect(swappedPairs(receipt.logs)).toEqual([getAddress(fixture.pools.alphaWrappedUsdc)]);
    const received = (await balanceOf(chain, fixture.wrapped, user.address)) - before;
    expect(received).toBe(expected);
    expect(received).toBeGreaterThanOrEqual(amountOutMin);
  });

  it('with TX_FILL=estimate, fills the approval and then the swap, each landing as filled', async () => {
    const trader = chain.accounts[2];
    await fundUser(chain, fixture, trader);
    const params = { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '10' };
    const headers = { 'x-wallet-address': trader.address };
    const first = await runAction(estimateApp, PATH, params, headers);
    expect(first.status).toBe(200);
    expect((first.body.params as { functionName: string }).functionName).toBe('approve');
    const approval = deserializeTransaction(first.body.serializedTransaction as string);
    expect(approval.gas).toBeGreaterThan(21_000n);
    expect(approval.nonce).toBe(await chain.publicClient.getTransactionCount(trader));
    const approved = await signAndSend(chain, trader, first.body.serializedTransaction as string, {
      keepFilled: true,
    });
    expect(approved.receipt.status).toBe('success');

    const { status, body } = await runAction(estimateApp, PATH, params, headers);
    expect(status).toBe(200);
    const tx = deserializeTransaction(body.serializedTransaction as string);
    expect(tx.gas).toBeGreaterThan(21_000n);
    const { receipt } = await signAndSend(chain, trader, body.serializedTransaction as string, {
      keepFilled: true,
    });
    expect(receipt.status).toBe('success');
    expect(swappedPairs(receipt.logs)).toEqual([getAddress(fixture.pools.alphaWrappedUsdc)]);
  });

  it('swaps USDC for USDT through the seeded Alpha USDC/USDT pool (the dev chain’s too)', async () => {
    const amountIn = 10n * 10n ** 6n;
    const [reserveIn, reserveOut] = await reservesOf(
      fixture.pools.alphaUsdcUsdt,
      fixture.usdc,
      fixture.usdt,
    );
    expect(reserveIn).toBeGreaterThan(0n);
    const expected = getAmountOut(amountIn, reserveIn, reserveOut);
    const { answer } = await approveThenRun(chain, user, app, PATH, {
      tokenIn: 'USDC',
      tokenOut: 'USDT',
      amountIn: '10',
    });
    expect(answer.status).toBe(200);
    const args = (answer.body.params as { args: SwapArgs }).args;
    expect(args.pool).toMatchObject({
      name: 'Alpha USDC/USDT',
      address: getAddress(fixture.pools.alphaUsdcUsdt),
    });
    expect(args.expectedAmountOut).toBe(expected.toString());
    const before = await balanceOf(chain, fixture.usdt, user.address);
    const serialized = answer.body.serializedTransaction as string;
    const { receipt } = await signAndSend(chain, user, serialized);
    expect(swappedPairs(receipt.logs)).toEqual([getAddress(fixture.pools.alphaUsdcUsdt)]);
    expect((await balanceOf(chain, fixture.usdt, user.address)) - before).toBe(expected);
  });

  describe('answers every failure as {error, code, message?, data?}', () => {
    const swap = (over: Record<string, string> = {}): Record<string, string> => ({
      tokenIn: 'WAVAX',
      tokenOut: 'USDC',
      amountIn: '1',
      ...over,
    });
    it.each<[string, Record<string, string>, Headers, number, string, string]>([
      [
        'a pair without a pool',
        swap({ tokenOut: 'USDT' }),
        (user) => user,
        404,
        'NO_LIQUIDITY',
        'No liquidity for WAVAX/USDT on Local Fuji (chain 43113)',
      ],
      [
        'an amount that buys nothing',
        swap({ amountIn: '0.000000000001' }),
        (user) => user,
        400,
        'ZERO_OUTPUT',
        'amountIn is too small: 0.000000000001 WAVAX buys 0 USDC in every pool',
      ],
      [
        'missing parameters',
        { amountIn: '1' },
        (user) => user,
        400,
        'VALIDATION_ERROR',
        'tokenIn is required, tokenOut is required',
      ],
      [
        'a slippage above 50',
        swap({ slippage: '51' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        'slippage must be at most 50',
      ],
      [
        'a slippage that is no number',
        swap({ slippage: 'lots' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        'slippage must be a valid number',
      ],
      [
        'a negative amount',
        swap({ amountIn: '-1' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        'amountIn has an invalid format',
      ],
      [
        'the same token twice',
        swap({ tokenIn: 'USDC' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        'tokenIn and tokenOut are the same token (USDC)',
      ],
      [
        'an unknown token',
        swap({ tokenOut: 'DAI' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        'tokenOut must be one of: AVAX, WAVAX, USDC, USDT',
      ],
      [
        'an undeclared chain',
        swap(),
        (user) => ({ ...user, 'x-source-chain': '1' }),
        400,
        'UNSUPPORTED_CHAIN',
        'Chain 1 is not supported by this action (sourceChain: 43113)',
      ],
      ['no user', swap(), () => ({}), 400, 'VALIDATION_ERROR', 'x-user-address header is required'],
    ])('%s', async (_case, params, headers, status, code, error) => {
      const sent = headers(wallet());
      const answer = await runAction(app, PATH, params, sent);
      // The refusal's message and data (the parameter it names) ride along; never `success`.
      expect(answer).toEqual({ status, body: expect.objectContaining({ error, code }) });
      expect(answer.body).not.toHaveProperty('success');
    });

    it('a pair whose only pool is empty: 404 NO_LIQUIDITY', async () => {
      const answer = await runAction(
        emptyApp,
        PATH,
        swap({ tokenIn: 'USDC', tokenOut: 'USDT' }),
        wallet(),
      );
      expect(answer).toEqual({
        status: 404,
        body: expect.objectContaining({
          error: 'No liquidity for USDC/USDT on Local Fuji (chain 43113)',
          code: 'NO_LIQUIDITY',
        }),
      });
    });

    it.each([
      ['down', () => downApp, 'could not be reached'],
      ['stalled', () => stalledApp, 'did not answer in time'],
    ])('a node that is %s: 503 without its URL', async (_case, target, phrase) => {
      const answer = await runAction(target(), PATH, swap(), wallet());
      expect(answer).toEqual({
        status: 503,
        body: {
          error: `The RPC node of Local Fuji (chain 43113) ${phrase}`,
          code: 'RPC_ERROR',
          message: 'The blockchain node is not answering, please try again later',
          data: { code: 'RPC_ERROR' },
        },
      });
      expect(JSON.stringify(answer.body)).not.toMatch(/127\.0\.0\.1|http/);
    });
  });
});
