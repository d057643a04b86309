import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  type HDAccount,
} from 'viem';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import { SWAP_EXACT_ETH_FOR_TOKENS } from '../../src/actions/best-swap/uniswap-v2.abi';
import { balanceOf } from '../../src/testing/evm/contracts';
import {
  type DexFixture,
  deployDexFixture,
  fixtureChainEntry,
  fundUser,
  writeChainFile,
} from '../../src/testing/evm/dex-fixture';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { deserializeTransaction, signAndSend } from '../../src/testing/evm/wallet';
import { createTestApp } from '../support/app.factory';
import { runAction } from '../support/platform';

const FUJI = 43113;
const PATH = '/api/best-swap';
interface Shown {
  args: { pool: { name: string }; expectedAmountOut: string; quotes: { pool: string }[] };
}

/**
 * Every route is dry-run before one is answered: a pool whose swap reverts is passed over for one
 * that lands, however good its reserves look; when none lands, the refusal is the best-quoted
 * route's own reason. Coin in (AVAX), so no approval stands between the request and the swap.
 */
describe('Best swap: routes dry-run in one batch', () => {
  let chain: LocalChain;
  let fixture: DexFixture;
  let user: HDAccount;
  let skipping: NestFastifyApplication;
  let failing: NestFastifyApplication;
  const sell = { tokenIn: 'AVAX', tokenOut: 'USDC', amountIn: '1', slippage: '0.5' };
  const wallet = (): Record<string, string> => ({ 'x-wallet-address': user.address });

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
    }) as { routers: Record<string, Address>; pools: Record<string, unknown>[] };
    // Beta's pair (the better price for WAVAX→USDC) behind a "router" that is the USDC token:
    // its reserves read fine and quote best, its swap reverts.
    const broken = {
      name: 'Broken WAVAX/USDC',
      address: fixture.pools.betaWrappedUsdc,
      router: 'broken',
      tokens: ['WAVAX', 'USDC'],
    };
    const alpha = entry.pools[0];
    const routers = { ...entry.routers, broken: fixture.usdc };
    const file = (pools: object[]): string =>
      writeChainFile({ [FUJI]: { ...entry, routers, pools } });
    const actions = [BestSwapModule];
    [skipping, failing] = await Promise.all([
      createTestApp({ env: { CHAIN_CONFIG_FILE: file([broken, alpha]) }, actions }),
      createTestApp({ env: { CHAIN_CONFIG_FILE: file([broken]) }, actions }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([skipping, failing].map((app) => app?.close()));
    await chain?.stop();
  });

  it('skips the best-quoted pool whose swap reverts, and the next one lands at its quote', async () => {
    const answer = await runAction(skipping, PATH, sell, wallet());
    expect(answer.status).toBe(200);
    const { args } = answer.body.params as Shown;
    expect(args.quotes.map((q) => q.pool)).toEqual(['Broken WAVAX/USDC', 'Alpha WAVAX/USDC']);
    expect(args.pool.name).toBe('Alpha WAVAX/USDC');
    const serialized = answer.body.serializedTransaction as string;
    const tx = deserializeTransaction(serialized);
    expect(getAddress(tx.to!)).toBe(getAddress(fixture.venues.alpha.router));
    const [amountOutMin] = decodeFunctionData({
      abi: [SWAP_EXACT_ETH_FOR_TOKENS],
      data: tx.data!,
    }).args;
    const quote = BigInt(args.expectedAmountOut);
    expect(amountOutMin).toBe((quote * 9950n) / 10000n);

    const before = await balanceOf(chain, fixture.usdc, user.address);
    const { receipt } = await signAndSend(chain, user, serialized);
    expect(receipt.status).toBe('success');
    expect((await balanceOf(chain, fixture.usdc, user.address)) - before).toBe(quote);
  });

  it('the answered minimum cannot fail where the dry run passed: the only difference is a minimum up to the output', async () => {
    const answer = await runAction(skipping, PATH, { ...sell, slippage: '0' }, wallet());
    expect(answer.status).toBe(200);
    const tx = deserializeTransaction(answer.body.serializedTransaction as string);
    const [amountOutMin, path, to, deadline] = decodeFunctionData({
      abi: [SWAP_EXACT_ETH_FOR_TOKENS],
      data: tx.data!,
    }).args;
    const blockNumber = await chain.publicClient.getBlockNumber();
    const swapWith = (minimum: bigint) =>
      chain.publicClient.call({
        account: user.address,
        to: tx.to!,
        value: tx.value,
        blockNumber,
        data: encodeFunctionData({
          abi: [SWAP_EXACT_ETH_FOR_TOKENS],
          args: [minimum, path, to, deadline],
        }),
      });
    // At one state the swap pays one amount: with a minimum of 0 (the dry run), and with any
    // minimum up to that amount (slippage 0 answers exactly it), the call passes; one unit more fails.
    await expect(swapWith(0n)).resolves.toBeDefined();
    await expect(swapWith(amountOutMin)).resolves.toBeDefined();
    await expect(swapWith(amountOutMin + 1n)).rejects.toThrow(/INSUFFICIENT_OUTPUT_AMOUNT/);
  });

  it('when no route lands, refuses with the best-quoted route’s own reason', async () => {
    const answer = await runAction(failing, PATH, sell, wallet());
    // The broken route's revert carries no data: its decoded reason is the generic one.
    expect(answer).toEqual({
      status: 400,
      body: { error: 'The transaction would fail', code: 'WOULD_REVERT' },
    });
  });
});
