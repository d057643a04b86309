import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Address, type HDAccount, parseTransaction } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { describeActionConformance } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { balanceOf } from '../../src/testing/evm/contracts';
import {
  type DexFixture,
  deployDexFixture,
  fixtureChainEntry,
  fundUser,
  writeChainFile,
} from '../../src/testing/evm/dex-fixture';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { closedRpcUrl, runAction } from '../support/platform';
import { signAndSend } from '../../src/testing/evm/wallet';

const FUJI = 43113;
/** The request's headers, given the wallet header of the funded user. */
type Headers = (user: Record<string, string>) => Record<string, string>;
const PATH = '/api/send-token';

/** The local chain passes for Fuji, the chain the action declares. */
describe('Send token on a local EVM', () => {
  let chain: LocalChain;
  let fixture: DexFixture;
  let user: HDAccount;
  let app: NestFastifyApplication;
  let jsonApp: NestFastifyApplication;
  let estimateApp: NestFastifyApplication;
  let downApp: NestFastifyApplication;
  const wallet = (): Record<string, string> => ({ 'x-wallet-address': user.address });
  const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

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
    // This chain lacks USDT, which the select offers: the action must refuse it by name.
    delete (entry.tokens as Record<string, unknown>).USDT;
    entry.pools = (entry.pools as { tokens: string[] }[]).filter((p) => !p.tokens.includes('USDT'));
    const env = { CHAIN_CONFIG_FILE: writeChainFile({ [FUJI]: entry }) };
    const actions = [SendTokenModule];
    [app, jsonApp, estimateApp, downApp] = await Promise.all([
      createTestApp({ env, actions }),
      createTestApp({ env: { ...env, TX_SERIALIZATION: 'json' }, actions }),
      createTestApp({ env: { ...env, TX_FILL: 'estimate' }, actions }),
      createTestApp({
        env: { ...env, TX_FILL: 'estimate', RPC_URL_43113: await closedRpcUrl() },
        actions,
      }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([app, jsonApp, estimateApp, downApp].map((a) => a?.close()));
    await chain?.stop();
  });

  describeActionConformance(() => app, PATH);
  describe('with TX_SERIALIZATION=json', () => {
    describeActionConformance(() => jsonApp, PATH);
  });

  it('builds an ERC-20 transfer that moves exactly the amount once the wallet signs it', async () => {
    const recipient = freshAddress();
    const { status, body } = await runAction(
      app,
      PATH,
      { token: 'USDC', recipient, amount: '12.345678' },
      wallet(),
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      serializedTransaction: expect.stringMatching(/^0x02/),
      chainId: FUJI,
      abi: [expect.objectContaining({ name: 'transfer', type: 'function' })],
      params: {
        functionName: 'transfer',
        args: { to: recipient, value: '12345678', token: 'USDC', amount: '12.345678' },
      },
    });
    const before = await balanceOf(chain, fixture.usdc, user.address);
    const { receipt } = await signAndSend(chain, user, body.serializedTransaction as string);
    expect(receipt.status).toBe('success');
    expect(await balanceOf(chain, fixture.usdc, recipient)).toBe(12_345_678n);
    expect(before - (await balanceOf(chain, fixture.usdc, user.address))).toBe(12_345_678n);
  });

  it('builds a native transfer in the wagmi JSON form, exact to the wei', async () => {
    const recipient = freshAddress();
    const { status, body } = await runAction(
      jsonApp,
      PATH,
      { token: 'AVAX', recipient, amount: '0.123456789012345678' },
      wallet(),
    );
    expect(status).toBe(200);
    expect(JSON.parse(body.serializedTransaction as string)).toEqual({
      type: 'eip1559',
      chainId: FUJI,
      to: recipient,
      value: { __type: 'bigint', value: '123456789012345678' },
    });
    const { receipt } = await signAndSend(chain, user, body.serializedTransaction as string);
    expect(receipt.status).toBe('success');
    expect(await chain.publicClient.getBalance({ address: recipient })).toBe(
      123_456_789_012_345_678n,
    );
  });

  it('fills nonce, gas and fees with TX_FILL=estimate, so the wallet only signs', async () => {
    const recipient = freshAddress();
    const { status, body } = await runAction(
      estimateApp,
      PATH,
      { token: 'WAVAX', recipient, amount: '0.5' },
      wallet(),
    );
    expect(status).toBe(200);
    const tx = parseTransaction(body.serializedTransaction as `0x02${string}`);
    const nonce = await chain.publicClient.getTransactionCount({ address: user.address });
    expect(tx.nonce).toBe(nonce);
    expect(tx.gas).toBeGreaterThan(21_000n);
    expect(tx.maxFeePerGas).toBeGreaterThan(0n);
    expect(tx.maxPriorityFeePerGas).toBeGreaterThan(0n);
    const { receipt, signed } = await signAndSend(
      chain,
      user,
      body.serializedTransaction as string,
      {
        keepFilled: true,
      },
    );
    expect(signed.nonce).toBe(nonce);
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBeLessThanOrEqual(tx.gas!);
    expect(await balanceOf(chain, fixture.wrapped, recipient)).toBe(5n * 10n ** 17n);
  });

  it('refuses to boot on a chain file that is invalid or lacks the declared chain', async () => {
    const broken = writeChainFile({
      [FUJI]: { name: 'Bad RPC', rpcUrl: 'ftp://rpc.example', nativeCurrency: { symbol: 'AVAX' } },
    });
    await expect(
      createTestApp({ env: { CHAIN_CONFIG_FILE: broken }, actions: [SendTokenModule] }),
    ).rejects.toThrow(`chains.${FUJI}.rpcUrl: no http(s) RPC URL: set RPC_URL_${FUJI}`);
    const elsewhere = writeChainFile({
      1: { name: 'Other', rpcUrl: chain.rpcUrl, nativeCurrency: { symbol: 'ETH', decimals: 18 } },
    });
    await expect(
      createTestApp({ env: { CHAIN_CONFIG_FILE: elsewhere }, actions: [SendTokenModule] }),
    ).rejects.toThrow(
      'action "Send tokens" (/api/send-token): chain 43113 (Avalanche Fuji) is not in the chain configuration',
    );
  });

  it('reads the user from the userAddress query parameter too', async () => {
    const { status, body } = await runAction(app, PATH, {
      token: 'USDC',
      recipient: freshAddress(),
      amount: '1',
      userAddress: user.address,
    });
    expect(status).toBe(200);
    expect(body.chainId).toBe(FUJI);
  });

  describe('answers every failure as {error, code, message?, data?}', () => {
    const valid = (): Record<string, string> => ({
      token: 'USDC',
      recipient: freshAddress(),
      amount: '1',
    });
    it.each<[string, () => Record<string, string>, Headers, number, string, RegExp]>([
      [
        'no parameters',
        () => ({}),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        /^token is required, recipient is required, amount is required$/,
      ],
      [
        'a malformed recipient',
        () => ({ ...valid(), recipient: '0x123' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        /^recipient must be a valid address$/,
      ],
      [
        'a non-decimal amount',
        () => ({ ...valid(), amount: '1e3' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        /^amount has an invalid format$/,
      ],
      [
        'a zero amount',
        () => ({ ...valid(), amount: '0.0' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        /^amount has an invalid format$/,
      ],
      [
        'too many decimals',
        () => ({ ...valid(), amount: '1.0000001' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        /^amount has 7 decimal places; USDC has 6$/,
      ],
      [
        'a token outside the select',
        () => ({ ...valid(), token: 'DOGE' }),
        (user) => user,
        400,
        'VALIDATION_ERROR',
        /^token must be one of: AVAX, WAVAX, USDC, USDT$/,
      ],
      [
        'a token this chain lacks',
        () => ({ ...valid(), token: 'USDT' }),
        (user) => user,
        400,
        'UNKNOWN_TOKEN',
        /^Unknown token USDT for token on Local Fuji \(chain 43113\)$/,
      ],
      [
        'an undeclared chain',
        valid,
        (user) => ({ ...user, 'x-source-chain': '31337' }),
        400,
        'UNSUPPORTED_CHAIN',
        /^Chain 31337 is not supported by this action \(sourceChain: 43113\)$/,
      ],
      [
        'no user',
        valid,
        () => ({}),
        400,
        'VALIDATION_ERROR',
        /^x-user-address header is required$/,
      ],
      [
        'a malformed user',
        valid,
        () => ({ 'x-wallet-address': '0xnope' }),
        400,
        'VALIDATION_ERROR',
        /^userAddress must be a valid address$/,
      ],
    ])('%s', async (_case, params, headers, status, code, error) => {
      const answer = await runAction(app, PATH, params(), headers(wallet()));
      // The refusal's message and data (the parameter it names) ride along; never `success`.
      expect(answer).toEqual({
        status,
        body: expect.objectContaining({ error: expect.stringMatching(error), code }),
      });
      expect(answer.body).not.toHaveProperty('success');
    });

    it('a node that is down: 503 without its URL (the transaction cannot be checked)', async () => {
      const answer = await runAction(downApp, PATH, valid(), wallet());
      expect(answer).toEqual({
        status: 503,
        body: {
          error: 'The RPC node of Local Fuji (chain 43113) could not be reached',
          code: 'RPC_ERROR',
          message: 'The blockchain node is not answering, please try again later',
          data: { code: 'RPC_ERROR' },
        },
      });
    });
  });
});
