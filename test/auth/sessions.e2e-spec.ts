import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SignJWT } from 'jose';
import type { HDAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { ISSUER } from '../../src/auth/session-tokens';
import { INTENT_STORE, type IntentStore } from '../../src/outcomes/intent-store';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';
import { type TestChain, startTestChain } from '../../src/testing/evm/test-chain';
import { createTestApp } from '../support/app.factory';
import { testLogs } from '../support/log-capture.helper';
import { postWithToken, SIWE_BASE, signInAs } from '../support/siwe.helper';

const SECRET = 'UjDBthNs80iZBxjUiYN63prijUvpBObX1h6AEJCs+Ic=';
const MINE = '/api/my-transactions';

/** Forges a token with this suite's secret (or another), for the claims it is given. */
async function forge(claims: Record<string, unknown>, secret = SECRET): Promise<string> {
  return new SignJWT({ chain_id: 43113, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(Buffer.from(secret, 'base64'));
}

const b64 = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('Verified users: sessions on actions', () => {
  let testChain: TestChain;
  let app: NestFastifyApplication;
  let alice: HDAccount;
  let bob: HDAccount;
  let aliceToken: string;

  beforeAll(async () => {
    testChain = await startTestChain();
    [alice, bob] = testChain.users;
    app = await createTestApp({
      env: {
        ...testChain.env,
        PUBLIC_BASE_URL: SIWE_BASE,
        AUTH_SECRET: SECRET,
        TX_SIMULATE: 'off',
      },
      actions: [SendTokenModule, MyTransactionsModule],
    });
    const sign = (account: HDAccount) => (message: string) => account.signMessage({ message });
    aliceToken = await signInAs(app, alice.address, sign(alice), 43113);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });

  const send = (token: string | undefined, headers: Record<string, string> = {}) =>
    postWithToken(
      app,
      `/api/send-token?token=USDC&amount=1&recipient=${privateKeyToAccount(generatePrivateKey()).address}`,
      token,
      undefined,
      headers,
    );

  it('a verified action without a token: 401 UNVERIFIED_USER naming the sign-in route', async () => {
    const answer = await postWithToken(
      app,
      MINE,
      undefined,
      {},
      { 'x-user-address': alice.address },
    );
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="\/api\/auth\/siwe"/);
    expect(answer.body).toMatchObject({
      data: { code: 'UNVERIFIED_USER', signIn: '/api/auth/siwe' },
    });
    expect(String(answer.body.message)).toContain('/api/auth/siwe');
  });

  it('the signed-in user sees their own intents, newest first, and never another user’s', async () => {
    const first = await send(aliceToken);
    const second = await send(aliceToken, { 'x-user-address': alice.address });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await send(undefined, { 'x-user-address': bob.address })).status).toBe(200);
    const store = app.get<IntentStore>(INTENT_STORE);
    const ids = [first, second].map((a) => String(a.headers['x-action-intent']));
    const stored = await Promise.all(ids.map((id) => store.get(id)));
    expect(stored.map((s) => [s?.intent.user, s?.intent.userLevel])).toEqual([
      [alice.address, 'siwe'],
      [alice.address, 'siwe'],
    ]);
    const answer = await postWithToken(app, MINE, aliceToken, { limit: 5 });
    const listed = (answer.body.data as { transactions: { intent: string; action: string }[] })
      .transactions;
    expect(answer.status).toBe(200);
    expect(listed.map((t) => t.intent)).toEqual([ids[1], ids[0]]);
    expect(listed.every((t) => t.action === '/api/send-token')).toBe(true);
    const bounded = await postWithToken(app, MINE, aliceToken, { limit: 1 });
    expect((bounded.body.data as { transactions: unknown[] }).transactions).toHaveLength(1);
  });

  it('a claimed intent is recorded as claimed', async () => {
    const answer = await send(undefined, { 'x-user-address': bob.address });
    const stored = await app
      .get<IntentStore>(INTENT_STORE)
      .get(String(answer.headers['x-action-intent']));
    expect(stored?.intent.userLevel).toBe('claimed');
  });

  it('a token with another claimed address: 403 USER_MISMATCH, on any action', async () => {
    for (const url of [MINE, '/api/send-token?token=USDC&amount=1&recipient=' + bob.address]) {
      const answer = await postWithToken(
        app,
        url,
        aliceToken,
        {},
        { 'x-user-address': bob.address },
      );
      expect([answer.status, answer.body]).toEqual([
        403,
        expect.objectContaining({ data: expect.objectContaining({ code: 'USER_MISMATCH' }) }),
      ]);
    }
  });

  it('a session of another chain: 403 SESSION_CHAIN_MISMATCH, on any action', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: alice.address, aud: SIWE_BASE, iss: ISSUER, jti: 'c', iat: now };
    // Signed in on Ethereum (chain 1): a contract wallet's owners there prove nothing here.
    const elsewhere = await forge({ ...claims, exp: now + 600, chain_id: 1 });
    for (const url of [MINE, '/api/send-token?token=USDC&amount=1&recipient=' + bob.address]) {
      const answer = await postWithToken(app, url, elsewhere);
      expect([url, answer.status, answer.body]).toEqual([
        url,
        403,
        expect.objectContaining({
          data: expect.objectContaining({ code: 'SESSION_CHAIN_MISMATCH', sessionChain: 1 }),
        }),
      ]);
    }
    // A session of this chain, with the chain named by the request: it runs.
    const own = await postWithToken(app, MINE, aliceToken, {}, { 'x-chain-id': '43113' });
    expect(own.status).toBe(200);
  });

  it('the access line says user_verified; the metric counts requests by level', async () => {
    const answer = await postWithToken(app, MINE, aliceToken);
    const reqId = answer.headers['x-request-id'];
    const line = testLogs.lines().find((l) => l.msg === 'request completed' && l.reqId === reqId);
    expect(line).toMatchObject({ user_verified: true, status: 200 });
    const claimed = await send(undefined, { 'x-user-address': bob.address });
    const claimedLine = testLogs
      .lines()
      .find((l) => l.msg === 'request completed' && l.reqId === claimed.headers['x-request-id']);
    expect(claimedLine).toMatchObject({ user_verified: false });
    const metric = await app
      .get(ActionMetrics)
      .registry.getSingleMetric('dynamic_action_user_requests_total')!
      .get();
    const count = (action: string, level: string): number =>
      metric.values.find((v) => v.labels.action === action && v.labels.level === level)?.value ?? 0;
    expect(count(MINE, 'siwe')).toBeGreaterThan(0);
    expect(count('/api/send-token', 'claimed')).toBeGreaterThan(0);
  });

  describe('a token that proves nothing is a 401, never a 500, on any action', () => {
    const now = (): number => Math.floor(Date.now() / 1000);
    const valid = () => ({
      sub: alice.address,
      aud: SIWE_BASE,
      iss: ISSUER,
      jti: 'x',
      iat: now(),
      exp: now() + 600,
    });
    const cases: [string, () => Promise<string>][] = [
      ['alg: none', () => Promise.resolve(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(valid())}.`)],
      ['another key', () => forge(valid(), 'bGZvc3RrZXktYW5vdGhlci1rZXktb2YtMzItYnl0ZXMhIQ==')],
      ['another audience', () => forge({ ...valid(), aud: 'https://other.example' })],
      ['another issuer', () => forge({ ...valid(), iss: 'someone-else' })],
      ['expired', () => forge({ ...valid(), iat: now() - 7200, exp: now() - 3600 })],
      [
        'issued in the future (clock skew)',
        () => forge({ ...valid(), iat: now() + 3600, exp: now() + 7200 }),
      ],
      ['no subject address', () => forge({ ...valid(), sub: 'alice' })],
      ['garbage', () => Promise.resolve('not.a.token')],
      [
        'a tampered payload',
        () =>
          Promise.resolve(
            aliceToken.replace(/\.[^.]+\./, `.${b64({ ...valid(), sub: bob.address })}.`),
          ),
      ],
    ];
    it.each(cases)('%s', async (_, make) => {
      const token = await make();
      for (const url of [MINE, '/api/send-token?token=USDC&amount=1&recipient=' + bob.address]) {
        const answer = await postWithToken(app, url, token);
        expect([url, answer.status]).toEqual([url, 401]);
        expect(answer.headers['www-authenticate']).toMatch(/error="invalid_token"/);
      }
    });

    it('a forged token with the right secret and claims is accepted (the cases above differ by one thing)', async () => {
      expect((await postWithToken(app, MINE, await forge(valid()))).status).toBe(200);
    });
  });

  it('logout revokes the token until it expires; another session stays valid', async () => {
    const sign = (message: string) => bob.signMessage({ message });
    const [one, two] = [
      await signInAs(app, bob.address, sign, 43113),
      await signInAs(app, bob.address, sign, 43113),
    ];
    expect((await postWithToken(app, MINE, one)).status).toBe(200);
    const out = await postWithToken(app, '/api/auth/logout', one);
    expect([out.status, out.body.data]).toEqual([200, { revoked: true, address: bob.address }]);
    expect((await postWithToken(app, MINE, one)).status).toBe(401);
    expect((await postWithToken(app, '/api/auth/logout', one)).status).toBe(401);
    expect((await postWithToken(app, MINE, two)).status).toBe(200);
    expect((await postWithToken(app, '/api/auth/logout', undefined)).status).toBe(401);
  });
});
