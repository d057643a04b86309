import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { HDAccount } from 'viem';
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import {
  type DataModeAction,
  executeDynamic,
  type FetchLike,
  signIn,
  siweMessageText,
} from '../../src/client';
import { ActionRegistry } from '../../src/kit/action.registry';
import { type TestChain, startTestChain } from '../../src/testing/evm/test-chain';
import { createTestApp } from '../support/app.factory';

/**
 * The client SDK's signIn over real HTTP (the app listening on loopback, the global fetch): the
 * message it writes is EIP-4361 as viem reads it, the session it gets opens a verified action,
 * and executeDynamic sends it as a bearer token on every call.
 */
describe('client SDK: signIn and the session on every call', () => {
  let testChain: TestChain;
  let app: NestFastifyApplication;
  let baseUrl: string;
  let user: HDAccount;
  let mine: DataModeAction;
  const sent: Record<string, string>[] = [];
  const fetch: FetchLike = (url, init) => {
    sent.push(init.headers);
    return globalThis.fetch(url, init);
  };

  beforeAll(async () => {
    testChain = await startTestChain();
    user = testChain.users[0];
    app = await createTestApp({ env: testChain.env, actions: [MyTransactionsModule] });
    await app.listen(0, '127.0.0.1');
    baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    mine = app
      .get(ActionRegistry)
      .actions()
      .find((a) => a.path === '/api/my-transactions') as DataModeAction;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });

  it('writes a message viem parses and validates as EIP-4361', () => {
    const text = siweMessageText({
      domain: 'actions.example.com',
      address: user.address,
      statement: 'Sign in.',
      uri: 'https://actions.example.com',
      chainId: 43113,
      nonce: 'abcdefgh12345678',
      issuedAt: new Date(),
    });
    const parsed = parseSiweMessage(text);
    expect(parsed).toMatchObject({ address: user.address, chainId: 43113, version: '1' });
    expect(validateSiweMessage({ message: parsed, domain: 'actions.example.com' })).toBe(true);
  });

  it('signs in with a wallet and runs a verified action with the session', async () => {
    const wallet = {
      address: user.address,
      chainId: 43113,
      signMessage: (message: string) => user.signMessage({ message }),
    };
    const result = await signIn(wallet, { baseUrl, fetch });
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    expect(result.session).toMatchObject({ address: user.address, chainId: 43113 });
    const answer = await executeDynamic(mine, {}, { baseUrl, fetch, session: result.session });
    expect(answer).toMatchObject({ success: true, data: { address: user.address } });
    expect(sent.at(-1)?.authorization).toBe(`Bearer ${result.session.token}`);
    const anonymous = await executeDynamic(mine, {}, { baseUrl, fetch });
    expect(anonymous).toMatchObject({ success: false, statusCode: 401 });
  });

  it('a wallet that refuses to sign is a failure, never a throw', async () => {
    const wallet = {
      address: user.address,
      chainId: 43113,
      signMessage: () => Promise.reject(new Error('User rejected the request')),
    };
    const result = await signIn(wallet, { baseUrl, fetch });
    expect(result).toMatchObject({ ok: false, failure: { statusCode: 0 } });
  });
});
