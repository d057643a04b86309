import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fc from 'fast-check';
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  type HDAccount,
  parseEther,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import {
  SWAP_EXACT_ETH_FOR_TOKENS,
  SWAP_EXACT_TOKENS_FOR_ETH,
  SWAP_EXACT_TOKENS_FOR_TOKENS,
} from '../../src/actions/best-swap/uniswap-v2.abi';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { fromBaseUnits } from '../../src/evm';
import { createTestApp } from '../support/app.factory';
import { balanceOf, call, ERC20_ABI, UNISWAP_V2 } from '../../src/testing/evm/contracts';
import {
  type DexFixture,
  deployDexFixture,
  fixtureChainEntry,
  fundUser,
  writeChainFile,
} from '../../src/testing/evm/dex-fixture';
import { deployFixtureToken, FIXTURE_TOKEN_ABI } from '../../src/testing/evm/fixture-tokens';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { type ActionAnswer, approveThenRun, runAction } from '../support/platform';
import { deserializeTransaction, signAndSend } from '../../src/testing/evm/wallet';

const FUJI = 43113;
const SWAP = '/api/best-swap';
const SEND = '/api/send-token';
const USDC = (whole: string): bigint => parseUnits(whole, 6);
const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/**
 * Every transaction the service answers lands when signed, as proven by signing it on a local
 * chain; every one that would not is refused with a reason, and no transaction is answered.
 */
describe('Transactions that land', () => {
  let chain: LocalChain;
  let fixture: DexFixture;
  let frozen: Address;
  let zeroFirst: Address;
  let app: NestFastifyApplication;
  let misquotingApp: NestFastifyApplication;
  let frozenApp: NestFastifyApplication;
  let uncheckedApp: NestFastifyApplication;
  let next = 1;
  /** A funded wallet no test used before: 10,000 AVAX, 1,000 USDC and USDT, 10 WAVAX. */
  const freshUser = async (): Promise<HDAccount> => {
    const account = chain.accounts[next++];
    await fundUser(chain, fixture, account);
    return account;
  };
  const as = (account: HDAccount): Record<string, string> => ({
    'x-wallet-address': account.address,
  });
  const functionOf = (answer: ActionAnswer): string | undefined =>
    (answer.body.params as { functionName?: string } | undefined)?.functionName;

  async function approve(account: HDAccount, token: Address, spender: Address, amount: bigint) {
    await call(chain, chain.wallet(account), {
      address: token,
      abi: ERC20_ABI,
      functionName: 'approve',
      args: [spender, amount],
    });
  }

  const allowance = (token: Address, owner: Address, spender: Address): Promise<bigint> =>
    chain.publicClient.readContract({
      address: token,
      abi: FIXTURE_TOKEN_ABI,
      functionName: 'allowance',
      args: [owner, spender],
    });

  /**
   * Sends a transaction as a wallet that ignores any refusal would, with gas set by hand. Hardhat
   * mines a reverting transaction and answers its revert as the send's error.
   */
  async function landsAnyway(
    account: HDAccount,
    to: Address,
    data: `0x${string}`,
  ): Promise<boolean> {
    try {
      const hash = await chain.wallet(account).sendTransaction({ to, data, gas: 300_000n });
      return (await chain.publicClient.waitForTransactionReceipt({ hash })).status === 'success';
    } catch (error) {
      if (/revert/i.test(String(error))) return false;
      throw error;
    }
  }

  /** A WAVAX/USDT pool at alpha whose USDT approves like mainnet USDT's (through 0). */
  async function zeroFirstPool(): Promise<Address> {
    const deployer = chain.wallet(fixture.deployer);
    const router = fixture.venues.alpha.router;
    await call(chain, deployer, {
      address: fixture.wrapped,
      abi: ERC20_ABI,
      functionName: 'deposit',
      value: parseEther('10'),
    });
    await approve(fixture.deployer, fixture.wrapped, router, parseEther('10'));
    await approve(fixture.deployer, zeroFirst, router, USDC('200'));
    await call(chain, deployer, {
      address: router,
      abi: UNISWAP_V2.router02.abi,
      functionName: 'addLiquidity',
      args: [
        fixture.wrapped,
        zeroFirst,
        parseEther('10'),
        USDC('200'),
        0n,
        0n,
        fixture.deployer.address,
        BigInt(Math.floor(Date.now() / 1000) + 3600),
      ],
    });
    return chain.publicClient.readContract({
      address: fixture.venues.alpha.factory,
      abi: UNISWAP_V2.factory.abi,
      functionName: 'getPair',
      args: [fixture.wrapped, zeroFirst],
    }) as Promise<Address>;
  }

  beforeAll(async () => {
    chain = await startLocalChain({ chainId: FUJI, accountCount: 16 });
    fixture = await deployDexFixture(chain);
    const deployer = chain.wallet(fixture.deployer);
    const token = { decimals: 6, supply: USDC('1000000') };
    frozen = await deployFixtureToken(chain, deployer, 'FrozenToken', {
      ...token,
      name: 'Frozen',
      symbol: 'USDT',
    });
    zeroFirst = await deployFixtureToken(chain, deployer, 'ZeroFirstToken', {
      ...token,
      name: 'Zero first',
      symbol: 'USDT',
    });
    const pool = await zeroFirstPool();
    const entry = fixtureChainEntry(fixture, {
      name: 'Local Fuji',
      rpcUrl: chain.rpcUrl,
      native: 'AVAX',
      wrapped: 'WAVAX',
    });
    // The actions offer the default file's symbols: USDT stands for each odd token in turn.
    const withUsdt = (address: Address, pools: Record<string, unknown>[]) => ({
      ...entry,
      tokens: { ...(entry.tokens as object), USDT: { address, decimals: 6 } },
      pools,
    });
    const pools = (entry.pools as { tokens: string[] }[]).filter((p) => !p.tokens.includes('USDT'));
    const zeroFirstPools = [
      ...pools,
      { name: 'Alpha WAVAX/USDT', address: pool, router: 'alpha', tokens: ['WAVAX', 'USDT'] },
    ];
    // Pools said to charge less than the pairs do: quotes the pools cannot pay.
    const misquoted = pools.map((p) => ({ ...p, feeBps: 10 }));
    const file = (address: Address, list: object[]): string =>
      writeChainFile({ [FUJI]: withUsdt(address, list as Record<string, unknown>[]) });
    const actions = [BestSwapModule, SendTokenModule];
    const frozenFile = file(frozen, pools);
    [app, misquotingApp, frozenApp, uncheckedApp] = await Promise.all([
      createTestApp({ env: { CHAIN_CONFIG_FILE: file(zeroFirst, zeroFirstPools) }, actions }),
      createTestApp({ env: { CHAIN_CONFIG_FILE: file(zeroFirst, misquoted) }, actions }),
      createTestApp({ env: { CHAIN_CONFIG_FILE: frozenFile }, actions }),
      createTestApp({ env: { CHAIN_CONFIG_FILE: frozenFile, TX_SIMULATE: 'off' }, actions }),
    ]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([app, misquotingApp, frozenApp, uncheckedApp].map((a) => a?.close()));
    await chain?.stop();
  });

  describe('best-swap', () => {
    it('a fresh wallet gets the exact approval first, then the swap, which lands at the quote', async () => {
      const user = await freshUser();
      const router = fixture.venues.alpha.router;
      const params = { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '10' };
      const { approval, answer } = await approveThenRun(chain, user, app, SWAP, params);
      expect(approval.body.abi).toEqual([expect.objectContaining({ name: 'approve' })]);
      expect(approval.body.params).toEqual({
        functionName: 'approve',
        args: {
          spender: getAddress(router),
          amount: USDC('10').toString(),
          token: 'USDC',
          step: 1,
          steps: 2,
          summary: expect.stringMatching(
            /^Step 1 of 2: approve 10 USDC for 0x.*run the action again to swap 10 USDC for at least/,
          ),
        },
      });
      expect(deserializeTransaction(approval.body.serializedTransaction as string).to).toBe(
        getAddress(fixture.usdc).toLowerCase(),
      );
      // Exactly what the swap needs, never an unlimited approval.
      expect(await allowance(fixture.usdc, user.address, router)).toBe(USDC('10'));

      expect([answer.status, functionOf(answer)]).toEqual([200, 'swapExactTokensForTokens']);
      const tx = deserializeTransaction(answer.body.serializedTransaction as string);
      const [, amountOutMin] = decodeFunctionData({
        abi: [SWAP_EXACT_TOKENS_FOR_TOKENS],
        data: tx.data!,
      }).args;
      const before = await balanceOf(chain, fixture.wrapped, user.address);
      const { receipt } = await signAndSend(
        chain,
        user,
        answer.body.serializedTransaction as string,
      );
      expect(receipt.status).toBe('success');
      const received = (await balanceOf(chain, fixture.wrapped, user.address)) - before;
      expect(received).toBeGreaterThanOrEqual(amountOutMin);
      expect(received.toString()).toBe(
        (answer.body.params as { args: { expectedAmountOut: string } }).args.expectedAmountOut,
      );
    });

    it('with the allowance already in place, the swap is one transaction', async () => {
      const user = await freshUser();
      await approve(user, fixture.usdc, fixture.venues.alpha.router, USDC('50'));
      const answer = await runAction(
        app,
        SWAP,
        { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '10' },
        as(user),
      );
      expect([answer.status, functionOf(answer)]).toEqual([200, 'swapExactTokensForTokens']);
      const { receipt } = await signAndSend(
        chain,
        user,
        answer.body.serializedTransaction as string,
      );
      expect(receipt.status).toBe('success');
    });

    it('sells the native coin with swapExactETHForTokens, no approval asked', async () => {
      const user = await freshUser();
      const answer = await runAction(
        app,
        SWAP,
        { tokenIn: 'AVAX', tokenOut: 'USDC', amountIn: '1' },
        as(user),
      );
      expect([answer.status, functionOf(answer)]).toEqual([200, 'swapExactETHForTokens']);
      const tx = deserializeTransaction(answer.body.serializedTransaction as string);
      expect(tx.value).toBe(parseEther('1'));
      const [amountOutMin, path] = decodeFunctionData({
        abi: [SWAP_EXACT_ETH_FOR_TOKENS],
        data: tx.data!,
      }).args;
      expect(path).toEqual([getAddress(fixture.wrapped), getAddress(fixture.usdc)]);
      const before = await balanceOf(chain, fixture.usdc, user.address);
      const { receipt } = await signAndSend(
        chain,
        user,
        answer.body.serializedTransaction as string,
      );
      expect(receipt.status).toBe('success');
      expect((await balanceOf(chain, fixture.usdc, user.address)) - before).toBeGreaterThanOrEqual(
        amountOutMin,
      );
    });

    it('buys the native coin with swapExactTokensForETH, after the approval', async () => {
      const user = await freshUser();
      const { answer } = await approveThenRun(chain, user, app, SWAP, {
        tokenIn: 'USDC',
        tokenOut: 'AVAX',
        amountIn: '25',
      });
      expect([answer.status, functionOf(answer)]).toEqual([200, 'swapExactTokensForETH']);
      const tx = deserializeTransaction(answer.body.serializedTransaction as string);
      const [, amountOutMin] = decodeFunctionData({
        abi: [SWAP_EXACT_TOKENS_FOR_ETH],
        data: tx.data!,
      }).args;
      const before = await chain.publicClient.getBalance(user);
      const { receipt } = await signAndSend(
        chain,
        user,
        answer.body.serializedTransaction as string,
      );
      expect(receipt.status).toBe('success');
      const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice;
      expect((await chain.publicClient.getBalance(user)) - before + gasPaid).toBeGreaterThanOrEqual(
        amountOutMin,
      );
    });

    it('a token that approves only from 0 (as USDT) is reset first: three signed steps, all landing', async () => {
      const user = await freshUser();
      const router = fixture.venues.alpha.router;
      await call(chain, chain.wallet(fixture.deployer), {
        address: zeroFirst,
        abi: ERC20_ABI,
        functionName: 'transfer',
        args: [user.address, USDC('100')],
      });
      await approve(user, zeroFirst, router, USDC('1'));
      const params = { tokenIn: 'USDT', tokenOut: 'WAVAX', amountIn: '5' };
      const reset = await runAction(app, SWAP, params, as(user));
      expect(reset.body.params).toEqual({
        functionName: 'approve',
        args: expect.objectContaining({ amount: '0', token: 'USDT', step: 1, steps: 3 }),
      });
      expect(
        (await signAndSend(chain, user, reset.body.serializedTransaction as string)).receipt.status,
      ).toBe('success');
      const { approval, answer } = await approveThenRun(chain, user, app, SWAP, params);
      expect((approval.body.params as { args: { amount: string } }).args.amount).toBe(
        USDC('5').toString(),
      );
      expect(functionOf(answer)).toBe('swapExactTokensForTokens');
      expect(
        (await signAndSend(chain, user, answer.body.serializedTransaction as string)).receipt
          .status,
      ).toBe('success');
    });

    it.each<[string, Record<string, string>, RegExp]>([
      [
        '5,000 USDC from a wallet holding 1,000',
        { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '5000' },
        /^You have 1,000 USDC; this needs 5,000 USDC$/,
      ],
      [
        'a million AVAX',
        { tokenIn: 'AVAX', tokenOut: 'USDC', amountIn: '1000000' },
        /^You have [\d,.]+ AVAX; this needs 1,000,000 AVAX$/,
      ],
    ])(
      'refuses a swap of %s: INSUFFICIENT_BALANCE, no transaction',
      async (_case, params, error) => {
        const user = await freshUser();
        const answer = await runAction(app, SWAP, params, as(user));
        expect(answer).toEqual({
          status: 400,
          body: { error: expect.stringMatching(error), code: 'INSUFFICIENT_BALANCE' },
        });
      },
    );

    it('quotes what the swap pays, not what a misconfigured fee promises: the minimum holds at slippage 0', async () => {
      const user = await freshUser();
      await approve(user, fixture.usdc, fixture.venues.alpha.router, USDC('50'));
      const answer = await runAction(
        misquotingApp,
        SWAP,
        { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '10', slippage: '0' },
        as(user),
      );
      expect(answer.status).toBe(200);
      const serialized = answer.body.serializedTransaction as string;
      const amountOutMin = decodeFunctionData({
        abi: [SWAP_EXACT_TOKENS_FOR_TOKENS],
        data: deserializeTransaction(serialized).data!,
      }).args[1];
      // The reserves' quote at the configured 0.1 % fee is more than the pair (0.3 %) pays: the
      // answer's minimum is the dry run's output instead, which the swap then pays exactly.
      const { args } = answer.body.params as { args: { quotes: { amountOut: string }[] } };
      expect(BigInt(args.quotes[0].amountOut)).toBeGreaterThan(amountOutMin);
      const before = await balanceOf(chain, fixture.wrapped, user.address);
      const { receipt } = await signAndSend(chain, user, serialized);
      expect(receipt.status).toBe('success');
      expect((await balanceOf(chain, fixture.wrapped, user.address)) - before).toBe(amountOutMin);
    });
  });

  describe('send-token', () => {
    it.each<[string, (balance: bigint) => Record<string, string>, RegExp]>([
      [
        'an ERC-20 transfer above the balance',
        () => ({ token: 'USDC', amount: '1000.000001' }),
        /^You have 1,000 USDC; this needs 1,000.000001 USDC$/,
      ],
      [
        'a native transfer of a million AVAX',
        () => ({ token: 'AVAX', amount: '1000000' }),
        /^You have [\d,.]+ AVAX; this needs 1,000,000 AVAX$/,
      ],
      [
        'a native transfer of all the coin, leaving nothing for gas',
        (balance) => ({ token: 'AVAX', amount: fromBaseUnits(balance, 18) }),
        /^Not enough AVAX for this amount plus gas: you have [\d,.]+ AVAX; this needs about [\d,.]+ AVAX$/,
      ],
    ])('refuses %s: INSUFFICIENT_BALANCE', async (_case, params, error) => {
      const user = await freshUser();
      const balance = await chain.publicClient.getBalance(user);
      const answer = await runAction(
        app,
        SEND,
        { ...params(balance), recipient: recipient() },
        as(user),
      );
      expect(answer).toEqual({
        status: 400,
        body: { error: expect.stringMatching(error), code: 'INSUFFICIENT_BALANCE' },
      });
    });

    it('refuses a wallet that holds the token but none of the coin for gas', async () => {
      const holder = privateKeyToAccount(generatePrivateKey()).address;
      await call(chain, chain.wallet(fixture.deployer), {
        address: fixture.usdc,
        abi: ERC20_ABI,
        functionName: 'transfer',
        args: [holder, USDC('5')],
      });
      const answer = await runAction(
        app,
        SEND,
        { token: 'USDC', amount: '1', recipient: recipient() },
        { 'x-wallet-address': holder },
      );
      expect(answer).toEqual({
        status: 400,
        body: { error: 'You have no AVAX to pay for gas', code: 'INSUFFICIENT_BALANCE' },
      });
    });

    it('refuses a transfer the token itself reverts, with its reason', async () => {
      const answer = await runAction(
        frozenApp,
        SEND,
        { token: 'USDT', amount: '1', recipient: recipient() },
        as(fixture.deployer),
      );
      expect(answer).toEqual({
        status: 400,
        body: {
          error: 'The transaction would fail: FrozenToken: transfers are frozen',
          code: 'WOULD_REVERT',
        },
      });
    });

    it('TX_SIMULATE=off answers unchecked (a debugging switch): the same transfer reverts when sent', async () => {
      const answer = await runAction(
        uncheckedApp,
        SEND,
        { token: 'USDT', amount: '1', recipient: recipient() },
        as(fixture.deployer),
      );
      expect(answer.status).toBe(200);
      const tx = deserializeTransaction(answer.body.serializedTransaction as string);
      expect(await landsAnyway(fixture.deployer, tx.to!, tx.data!)).toBe(false);
    });
  });

  describe('answered exactly when it lands (around the balance: −1, 0, +1 base unit)', () => {
    it('send-token (USDC)', async () => {
      const user = await freshUser();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(-1n, 0n, 1n), async (delta) => {
          const balance = await balanceOf(chain, fixture.usdc, user.address);
          const units = balance + delta;
          const to = recipient();
          const answer = await runAction(
            app,
            SEND,
            { token: 'USDC', amount: fromBaseUnits(units, 6), recipient: to },
            as(user),
          );
          const data = encodeTransfer(to, units);
          const lands =
            answer.status === 200
              ? (await signAndSend(chain, user, answer.body.serializedTransaction as string))
                  .receipt.status === 'success'
              : await landsAnyway(user, fixture.usdc, data);
          expect(answer.status === 200).toBe(lands);
          expect(lands).toBe(units <= balance);
          if (lands) await fundUser(chain, fixture, user, { usdt: 0n, wrapped: 0n });
        }),
        { numRuns: 6, examples: [[-1n], [0n], [1n]] },
      );
    });

    it('best-swap (USDC → WAVAX)', async () => {
      const user = await freshUser();
      const router = fixture.venues.alpha.router;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(-1n, 0n, 1n), async (delta) => {
          const balance = await balanceOf(chain, fixture.usdc, user.address);
          const units = balance + delta;
          await approve(user, fixture.usdc, router, units);
          const params = { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: fromBaseUnits(units, 6) };
          const answer = await runAction(app, SWAP, params, as(user));
          const deadline = BigInt(Math.floor(Date.now() / 1000) + 600);
          const lands =
            answer.status === 200
              ? (await signAndSend(chain, user, answer.body.serializedTransaction as string))
                  .receipt.status === 'success'
              : await landsAnyway(
                  user,
                  router,
                  encodeSwap(units, [fixture.usdc, fixture.wrapped], user.address, deadline),
                );
          expect(answer.status === 200).toBe(lands);
          expect(lands).toBe(units <= balance);
          if (!lands) expect(answer.body.code).toBe('INSUFFICIENT_BALANCE');
          if (lands) await fundUser(chain, fixture, user, { usdt: 0n, wrapped: 0n });
        }),
        { numRuns: 6, examples: [[-1n], [0n], [1n]] },
      );
    });
  });
});

const encodeTransfer = (to: Address, amount: bigint): `0x${string}` =>
  encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [to, amount] });

const encodeSwap = (
  amountIn: bigint,
  path: Address[],
  to: Address,
  deadline: bigint,
): `0x${string}` =>
  encodeFunctionData({
    abi: [SWAP_EXACT_TOKENS_FOR_TOKENS],
    functionName: 'swapExactTokensForTokens',
    args: [amountIn, 0n, path, to, deadline],
  });
