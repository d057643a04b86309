import { recentKey } from '../../src/outcomes/redis-intent.keys';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import type { HDAccount } from 'viem';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { type TestChain, startTestChain } from '../../src/testing/evm/test-chain';
import { createTestApp } from '../support/app.factory';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';
import {
  nonceOf,
  postSignIn,
  postWithToken,
  SIWE_BASE,
  siweMessage,
  signInAs,
} from '../support/siwe.helper';

const MINE = '/api/my-transactions';

/**
 * Two replicas on one Redis: a nonce one gave is used once on either, a session one revoked is
 * refused by both, and the keys expire (nonce after AUTH_NONCE_TTL_S, the deny-list entry when the
 * session would have), under the service's key prefix.
 */
describeWithRedis()('Verified users on Redis (two replicas)', () => {
  const prefix = runKeyPrefix('auth');
  let admin: Redis;
  let testChain: TestChain;
  let user: HDAccount;
  let one: NestFastifyApplication;
  let two: NestFastifyApplication;

  beforeAll(async () => {
    admin = new Redis(REDIS_TEST_URL);
    testChain = await startTestChain();
    user = testChain.users[0];
    const env = {
      ...testChain.env,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: prefix,
      PUBLIC_BASE_URL: SIWE_BASE,
      AUTH_SECRET: 'VNOk6xrS/fsF5mdetKt1cxLs2W18EGOfT+4HkLW7YhY=',
      AUTH_NONCE_TTL_S: '120',
      AUTH_SESSION_TTL_S: '600',
    };
    const actions = [SendTokenModule, MyTransactionsModule];
    [one, two] = await Promise.all([
      createTestApp({ env, actions }),
      createTestApp({ env, actions }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([one, two].map((a) => a?.close()));
    await testChain?.stop();
    if (admin) {
      await deleteKeys(admin, prefix);
      await admin.quit();
    }
  });

  const sign = (message: string) => user.signMessage({ message });

  it('a nonce given by one replica is kept in Redis with its TTL and used once on either', async () => {
    const nonce = await nonceOf(one);
    const ttl = await admin.pttl(`${prefix}auth:nonce:${nonce}`);
    expect(ttl).toBeGreaterThan(100_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
    const message = siweMessage({ address: user.address, chainId: 43113, nonce });
    const signature = await sign(message);
    const [a, b] = await Promise.all([
      postSignIn(two, message, signature),
      postSignIn(one, message, signature),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
    expect(await admin.exists(`${prefix}auth:nonce:${nonce}`)).toBe(0);
  });

  it('a session revoked on one replica is refused on the other, until it would have expired', async () => {
    const token = await signInAs(one, user.address, sign, 43113);
    expect((await postWithToken(two, MINE, token)).status).toBe(200);
    expect((await postWithToken(two, '/api/auth/logout', token)).status).toBe(200);
    const revoked = await admin.keys(`${prefix}auth:revoked:*`);
    expect(revoked).toHaveLength(1);
    const ttl = await admin.pttl(revoked[0]);
    expect(ttl).toBeGreaterThan(500_000);
    expect(ttl).toBeLessThanOrEqual((600 + 30) * 1000);
    const answer = await postWithToken(one, MINE, token);
    expect([answer.status, answer.body]).toEqual([
      401,
      expect.objectContaining({ data: expect.objectContaining({ code: 'UNVERIFIED_USER' }) }),
    ]);
  });

  it('the signed-in user’s intents are listed from Redis by either replica, newest first', async () => {
    const token = await signInAs(one, user.address, sign, 43113);
    const sent = [];
    for (let i = 0; i < 2; i++) {
      const answer = await postWithToken(
        one,
        `/api/send-token?token=USDC&amount=1&recipient=${testChain.users[1].address}`,
        token,
      );
      expect(answer.status).toBe(200);
      sent.push(String(answer.headers['x-action-intent']));
    }
    const listed = await postWithToken(two, MINE, token, { limit: 2 });
    const ids = (listed.body.data as { transactions: { intent: string }[] }).transactions.map(
      (t) => t.intent,
    );
    expect(ids).toEqual([sent[1], sent[0]]);
    expect(await admin.pttl(`${prefix}${recentKey(user.address)}`)).toBeGreaterThan(0);
  });
});
