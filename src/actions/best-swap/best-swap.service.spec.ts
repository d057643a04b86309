import { Logger } from '@nestjs/common';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  ContractFunctionZeroDataError,
  decodeFunctionData,
  getAddress,
  HttpRequestError,
  parseTransaction,
  type PublicClient,
} from 'viem';
import { loadTransactionConfig } from '../../evm/chains/chains.config';
import type { UserContext } from '../../kit';
import { ChainRpc, TransactionBuilder } from '../../evm/transaction';
import type { BestSwapParams } from './best-swap.action';
import { SwapQuoter } from './swap-quoter';
import { BestSwapService, DEADLINE_SECONDS } from './best-swap.service';
import { SWAP_EXACT_TOKENS_FOR_TOKENS } from './uniswap-v2.abi';
import { refusal } from '../../testing/action-refusal';
import { chainsUnderTest } from '../../testing/chain-registry.helper';

const USER = '0x52908400098527886E0F7030069857D2E4169EE7';
// USDC sorts below WAVAX, so V2 pairs hold USDC as token0: reserves are [usdc, wavax].
const WAVAX = getAddress('0xd00ae08403B9bbb9124bB305C09058E32C39A48c');
const USDC = getAddress('0x5425890298aed601595a70AB815c96711a31Bc65');
const USDT = getAddress('0xAb231A5744C8E6c45481754928cCfFFFD4aa0732');
const POOL = {
  alpha: getAddress('0x00000000000000000000000000000000000a1fa0'),
  beta: getAddress('0x00000000000000000000000000000000000be7a0'),
  empty: getAddress('0x00000000000000000000000000000000000e3b70'),
};
const ROUTER = {
  alpha: getAddress('0x000000000000000000000000000000000a1fa0ee'),
  beta: getAddress('0x000000000000000000000000000000000be7a0ee'),
};
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

const file = join(mkdtempSync(join(tmpdir(), 'best-swap-')), 'chains.json');
writeFileSync(
  file,
  JSON.stringify({
    chains: {
      43113: {
        name: 'Fuji',
        rpcUrl: 'https://rpc.example.com/key/SECRET',
        nativeCurrency: { symbol: 'AVAX', decimals: 18 },
        tokens: {
          WAVAX: { address: WAVAX, decimals: 18 },
          USDC: { address: USDC, decimals: 6 },
          USDT: { address: USDT, decimals: 6 },
        },
        routers: ROUTER,
        pools: [
          { name: 'Alpha', address: POOL.alpha, router: 'alpha', tokens: ['WAVAX', 'USDC'] },
          { name: 'Beta', address: POOL.beta, router: 'beta', tokens: ['USDC', 'WAVAX'] },
          { name: 'Empty', address: POOL.empty, router: 'alpha', tokens: ['USDC', 'USDT'] },
        ],
      },
    },
  }),
);

type Reserves = Partial<Record<Address, readonly unknown[] | Error | null>>;

/** A node whose pairs hold the reserves a test sets. */
class FakeRpc extends ChainRpc {
  reserves: Reserves = {};

  override client(): PublicClient {
    const readContract = ({ address }: { address: Address }): Promise<unknown> => {
      const answer = this.reserves[address];
      return answer instanceof Error || answer === undefined
        ? Promise.reject(
            answer ?? new ContractFunctionZeroDataError({ functionName: 'getReserves' }),
          )
        : Promise.resolve(answer);
    };
    return { readContract } as unknown as PublicClient;
  }
}

function setup(reserves: Reserves): BestSwapService {
  const { registry, rpc } = chainsUnderTest({ CHAIN_CONFIG_FILE: file }, FakeRpc);
  rpc.reserves = reserves;
  return new BestSwapService(
    new SwapQuoter(registry, rpc),
    new TransactionBuilder(registry, loadTransactionConfig({ TX_SIMULATE: 'off' }), rpc),
  );
}

const MARKET: Reserves = {
  [POOL.alpha]: [2000n * E6, 100n * E18, 0], // 20 USDC per WAVAX, deeper
  [POOL.beta]: [1250n * E6, 50n * E18, 0], // 25 USDC per WAVAX
  [POOL.empty]: [0n, 0n, 0],
};
const context: UserContext = { requestId: 'r', userAddress: USER };
const swap = (
  tokenIn: string,
  tokenOut: string,
  amountIn: string,
  slippage = 0.5,
): BestSwapParams => ({
  tokenIn,
  tokenOut,
  amountIn,
  slippage,
});
const getAmountOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);

async function decoded(params: BestSwapParams) {
  const response = await setup(MARKET).build(params, context);
  const tx = parseTransaction(response.serializedTransaction as `0x02${string}`);
  const { args } = decodeFunctionData({ abi: [SWAP_EXACT_TOKENS_FOR_TOKENS], data: tx.data! });
  return { response, tx, args };
}

describe('BestSwapService', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('sells through the pool that pays the most, with the slippage floor, the user and a deadline', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { response, tx, args } = await decoded(swap('WAVAX', 'USDC', '1'));
    const expected = getAmountOut(E18, 50n * E18, 1250n * E6);
    expect(tx.to).toBe(ROUTER.beta.toLowerCase());
    const [amountIn, amountOutMin, path, to, deadline] = args;
    expect([amountIn, amountOutMin, path, to]).toEqual([
      E18,
      (expected * 9950n) / 10000n,
      [WAVAX, USDC],
      USER,
    ]);
    expect(Number(deadline)).toBeGreaterThanOrEqual(before + DEADLINE_SECONDS);
    expect(Number(deadline)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + DEADLINE_SECONDS);
    expect(response.params?.args).toEqual(
      expect.objectContaining({
        pool: { name: 'Beta', address: POOL.beta, router: ROUTER.beta, feeBps: 30 },
        expectedAmountOut: expected.toString(),
        quotes: [
          { pool: 'Alpha', amountOut: getAmountOut(E18, 100n * E18, 2000n * E6).toString() },
          { pool: 'Beta', amountOut: expected.toString() },
        ],
      }),
    );
    expect(response.abi).toEqual([SWAP_EXACT_TOKENS_FOR_TOKENS]);
  });

  it('buys through the other pool when the direction turns', async () => {
    const { tx, args } = await decoded(swap('USDC', 'WAVAX', '100'));
    expect(tx.to).toBe(ROUTER.alpha.toLowerCase());
    expect(args[2]).toEqual([USDC, WAVAX]);
    expect(args[1]).toBe((getAmountOut(100n * E6, 2000n * E6, 100n * E18) * 9950n) / 10000n);
  });

  it.each([
    [0, 10000n],
    [1.25, 9875n],
    [50, 5000n],
  ])('keeps %p %% slippage exactly in amountOutMin', async (slippage, keepBps) => {
    const { args } = await decoded(swap('WAVAX', 'USDC', '2', slippage));
    expect(args[1]).toBe((getAmountOut(2n * E18, 50n * E18, 1250n * E6) * keepBps) / 10000n);
  });

  it('answers 404 when the pair has no liquidity or no pool', async () => {
    for (const [tokenIn, tokenOut] of [
      ['USDC', 'USDT'],
      ['WAVAX', 'USDT'],
    ]) {
      const error = await refusal(() => setup(MARKET).build(swap(tokenIn, tokenOut, '1'), context));
      expect([error.getStatus(), error.details.code]).toEqual([404, 'NO_LIQUIDITY']);
      expect(error.error).toBe(`No liquidity for ${tokenIn}/${tokenOut} on Fuji (chain 43113)`);
    }
  });

  it('answers 400 naming amountIn when every pool would pay nothing', async () => {
    const error = await refusal(() =>
      setup(MARKET).build(swap('WAVAX', 'USDC', '0.000000000001'), context),
    );
    expect([error.getStatus(), error.details.code]).toEqual([400, 'ZERO_OUTPUT']);
    expect(error.error).toBe(
      'amountIn is too small: 0.000000000001 WAVAX buys 0 USDC in every pool',
    );
  });

  it.each([
    [swap('USDC', 'USDC', '1'), 'tokenIn and tokenOut are the same token (USDC)'],
    [
      swap('AVAX', 'WAVAX', '1'),
      'tokenIn and tokenOut are the same token (AVAX is swapped as WAVAX)',
    ],
    [swap('WAVAX', 'DAI', '1'), 'Unknown token DAI for tokenOut on Fuji (chain 43113)'],
    [swap('USDC', 'WAVAX', '1.0000001'), 'amountIn has 7 decimal places; USDC has 6'],
  ])('refuses %j with a 400', async (params, message) => {
    const error = await refusal(() => setup(MARKET).build(params, context));
    expect([error.getStatus(), error.error]).toEqual([400, message]);
  });

  it('leaves out a pool that cannot be read and quotes the others', async () => {
    const service = setup({ ...MARKET, [POOL.beta]: undefined });
    const response = await service.build(swap('WAVAX', 'USDC', '1'), context);
    expect(response.params?.args.pool).toEqual(expect.objectContaining({ name: 'Alpha' }));
    expect(warn).toHaveBeenCalledWith('Pool Beta on chain 43113 could not be read; skipped');
  });

  it.each<[string, unknown]>([
    ['no answer', null],
    ['an empty tuple', []],
    ['amounts that are not numbers', ['0x10', '0x10', 0]],
    ['a negative amount', [-1n, 10n, 0]],
  ])('answers RPC_ERROR, not NO_LIQUIDITY, when reserves come back as %s', async (_case, bad) => {
    const error = await refusal(() =>
      setup({ ...MARKET, [POOL.beta]: bad as readonly unknown[] }).build(
        swap('WAVAX', 'USDC', '1'),
        context,
      ),
    );
    expect([error.getStatus(), error.details.code, error.error]).toEqual([
      500,
      'RPC_ERROR',
      'The RPC node of Fuji (chain 43113) sent an answer of the wrong shape',
    ]);
  });

  it('answers 500 without the node URL when the node fails', async () => {
    const down = new HttpRequestError({
      url: 'https://rpc.example.com/key/SECRET',
      details: 'fetch failed',
    });
    const error = await refusal(() =>
      setup({ [POOL.alpha]: down, [POOL.beta]: down }).build(swap('WAVAX', 'USDC', '1'), context),
    );
    expect([error.getStatus(), error.details.code, error.error]).toEqual([
      500,
      'RPC_ERROR',
      'The RPC node of Fuji (chain 43113) could not be reached',
    ]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(
      /^pool reserves on chain 43113 failed \(unreachable\)/,
    );
    expect(String(warn.mock.calls[0][0])).not.toMatch(/SECRET|https?:/);
  });
});
