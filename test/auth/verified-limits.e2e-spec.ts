import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { HDAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { type TestChain, startTestChain } from '../../src/testing/evm/test-chain';
import { createTestApp } from '../support/app.factory';
import { postWithToken, SIWE_BASE, signInAs } from '../support/siwe.helper';

const MINE = '/api/my-transactions';
const stranger = (): string => privateKeyToAccount(generatePrivateKey()).address;

/**
 * The per-user limit counts the verified address: rotating x-user-address, x-wallet-address or
 * the body's user changes nothing for a signed-in caller (and the claimed one never matches).
 */
describe('Verified users: the per-user rate limit', () => {
  let testChain: TestChain;
  let app: NestFastifyApplication;
  let user: HDAccount;

  beforeAll(async () => {
    testChain = await startTestChain();
    user = testChain.users[0];
    app = await createTestApp({
      env: { ...testChain.env, PUBLIC_BASE_URL: SIWE_BASE, RATE_LIMIT_USER_MAX: '3' },
      actions: [MyTransactionsModule],
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });

  it('counts the signed-in address whatever header or body names a user', async () => {
    const token = await signInAs(
      app,
      user.address,
      (message) => user.signMessage({ message }),
      43113,
    );
    const rotated: [unknown, Record<string, string>][] = [
      [{}, { 'x-user-address': stranger() }],
      [{}, { 'x-wallet-address': stranger() }],
      [{ context: { userAddress: stranger() } }, {}],
    ];
    const statuses: number[] = [];
    for (const [body, headers] of rotated) {
      const answer = await postWithToken(app, MINE, token, body, headers);
      statuses.push(answer.status);
      expect(answer.headers['x-ratelimit-limit']).toBe('3');
    }
    // Each claimed another user than the signed-in one (403), and each counted against it.
    expect(statuses).toEqual([403, 403, 403]);
    const fourth = await postWithToken(app, MINE, token, {}, { 'x-user-address': stranger() });
    expect(fourth.status).toBe(429);
    const plain = await postWithToken(app, MINE, token);
    expect(plain.status).toBe(429);
  });

  it('a claimed address without a token is counted as claimed, apart from the verified one', async () => {
    const claimed = stranger();
    const answer = await postWithToken(app, MINE, undefined, {}, { 'x-user-address': claimed });
    expect([answer.status, answer.headers['x-ratelimit-remaining']]).toEqual([401, '2']);
  });
});
