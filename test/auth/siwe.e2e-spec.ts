import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { HDAccount } from 'viem';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { type TestChain, startTestChain } from '../../src/testing/evm/test-chain';
import { counterfactualWallet, deploySmartWallet } from '../../src/testing/evm/smart-wallets';
import { createTestApp } from '../support/app.factory';
import {
  nonceOf,
  postSignIn,
  postWithToken,
  SIWE_BASE,
  siweMessage,
  signInAs,
} from '../support/siwe.helper';

/**
 * Sign-In with Ethereum on a local chain (Hardhat): an EOA, a deployed ERC-1271 wallet and an
 * undeployed ERC-6492 one sign in, each checked by viem on the chain's own node; every message
 * that must not open a session is refused.
 */
describe('Sign-In with Ethereum', () => {
  let testChain: TestChain;
  let app: NestFastifyApplication;
  let owner: HDAccount;
  let stranger: HDAccount;
  let chainId: number;

  beforeAll(async () => {
    testChain = await startTestChain();
    chainId = testChain.chain.chainId;
    [owner, stranger] = testChain.users;
    app = await createTestApp({
      env: { ...testChain.env, PUBLIC_BASE_URL: SIWE_BASE },
      actions: [MyTransactionsModule],
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });

  const sign = (account: HDAccount) => (message: string) => account.signMessage({ message });

  it('an EOA signs in: a token that opens a verified action', async () => {
    const token = await signInAs(app, owner.address, sign(owner), chainId);
    const answer = await postWithToken(app, '/api/my-transactions', token);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ address: owner.address, transactions: [] });
  });

  it('a deployed ERC-1271 wallet signs in through its owner’s signature', async () => {
    const wallet = await deploySmartWallet(testChain.chain, owner);
    expect(await testChain.chain.publicClient.getCode({ address: wallet })).not.toBe('0x');
    const token = await signInAs(app, wallet, sign(owner), chainId);
    const answer = await postWithToken(app, '/api/my-transactions', token);
    expect([answer.status, (answer.body.data as { address: string }).address]).toEqual([
      200,
      wallet,
    ]);
  });

  it('a wallet another key owns is refused (ERC-1271 says no)', async () => {
    const wallet = await deploySmartWallet(testChain.chain, owner);
    const message = siweMessage({ address: wallet, chainId, nonce: await nonceOf(app) });
    const answer = await postSignIn(app, message, await stranger.signMessage({ message }));
    expect([answer.status, answer.body.error]).toEqual([401, expect.stringMatching(/signature/)]);
  });

  it('an undeployed ERC-6492 wallet signs in, and stays undeployed', async () => {
    const wallet = await counterfactualWallet(testChain.chain, owner);
    expect(await testChain.chain.publicClient.getCode({ address: wallet.address })).toBeUndefined();
    const token = await signInAs(app, wallet.address, wallet.signMessage, chainId);
    expect(token).toEqual(expect.any(String));
    expect(await testChain.chain.publicClient.getCode({ address: wallet.address })).toBeUndefined();
  });

  describe('refuses', () => {
    it('a replayed message: its nonce is used once', async () => {
      const message = siweMessage({ address: owner.address, chainId, nonce: await nonceOf(app) });
      const signature = await owner.signMessage({ message });
      expect((await postSignIn(app, message, signature)).status).toBe(200);
      const replay = await postSignIn(app, message, signature);
      expect([replay.status, replay.body.error]).toEqual([401, expect.stringMatching(/nonce/)]);
    });

    it('a nonce the service never gave', async () => {
      const message = siweMessage({ address: owner.address, chainId, nonce: 'abcdefgh12345678' });
      const answer = await postSignIn(app, message, await owner.signMessage({ message }));
      expect([answer.status, answer.body.error]).toEqual([401, expect.stringMatching(/nonce/)]);
    });

    it.each([
      ['another domain', { domain: 'evil.example' }, /domain/],
      ['another URI', { uri: 'https://evil.example/login' }, /URI/],
      ['an expired message', { expirationTime: new Date(Date.now() - 120_000) }, /expired/],
      ['a message issued in the future', { issuedAt: new Date(Date.now() + 600_000) }, /future/],
      ['a message not valid yet', { notBefore: new Date(Date.now() + 600_000) }, /not valid yet/],
    ])('%s (401), and its nonce stays usable', async (_, fields, reason) => {
      const nonce = await nonceOf(app);
      const message = siweMessage({ address: owner.address, chainId, nonce, ...fields });
      const answer = await postSignIn(app, message, await owner.signMessage({ message }));
      expect([answer.status, answer.body.error]).toEqual([401, expect.stringMatching(reason)]);
      const honest = siweMessage({ address: owner.address, chainId, nonce });
      expect(
        (await postSignIn(app, honest, await owner.signMessage({ message: honest }))).status,
      ).toBe(200);
    });

    it('a chain the service does not serve (400 UNSUPPORTED_CHAIN)', async () => {
      const message = siweMessage({
        address: owner.address,
        chainId: 1,
        nonce: await nonceOf(app),
      });
      const answer = await postSignIn(app, message, await owner.signMessage({ message }));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ data: { code: 'UNSUPPORTED_CHAIN' } });
    });

    it('a signature by another key', async () => {
      const message = siweMessage({ address: owner.address, chainId, nonce: await nonceOf(app) });
      const answer = await postSignIn(app, message, await stranger.signMessage({ message }));
      expect([answer.status, answer.body.error]).toEqual([401, expect.stringMatching(/signature/)]);
    });

    it.each([
      ['a malformed Issued At', (m: string) => m.replace(/Issued At: .*/, 'Issued At: not a time')],
      [
        'fields out of order (viem drops them)',
        (m: string) => m.replace(/(Version: .*)\n(Chain ID: .*)/, '$2\n$1'),
      ],
      ['a time without milliseconds', (m: string) => m.replace(/(Issued At: .*)\.\d{3}Z/, '$1Z')],
    ])('%s (400 INVALID_SIWE_MESSAGE), and its nonce stays usable', async (_, bend) => {
      const nonce = await nonceOf(app);
      const message = bend(siweMessage({ address: owner.address, chainId, nonce }));
      const answer = await postSignIn(app, message, await owner.signMessage({ message }));
      expect([answer.status, answer.body]).toEqual([
        400,
        expect.objectContaining({ data: { code: 'INVALID_SIWE_MESSAGE' } }),
      ]);
      const honest = siweMessage({ address: owner.address, chainId, nonce });
      expect(
        (await postSignIn(app, honest, await owner.signMessage({ message: honest }))).status,
      ).toBe(200);
    });

    it.each([
      ['no body', undefined],
      ['a message that is no EIP-4361 text', { message: 'hello', signature: '0x00' }],
      ['a signature that is no hex', { message: 'x', signature: 'zz' }],
      ['a message over the bound', { message: 'a'.repeat(5_000), signature: '0x00' }],
    ])('%s (400 INVALID_SIWE_MESSAGE)', async (_, body) => {
      const answer = await postWithToken(app, '/api/auth/siwe', undefined, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ data: { code: 'INVALID_SIWE_MESSAGE' } });
    });
  });
});
