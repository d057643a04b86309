import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Address, HDAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { signAndSend } from '../../src/testing';
import { heard, readIntent, SendTokenWithHookModule } from '../support/outcomes.helper';
import { describeWithRedis } from '../support/redis.helper';
import { outcomesSuite } from '../support/outcomes-suite.helper';
import { SIWE_BASE, signInAs } from '../support/siwe.helper';

const SECRET = 'QexJwmfiuXbSD9JgLYeKDLnw1JhoEkNXVAUzi6stNak=';
const ATTACKER_IP = '203.0.113.9';
const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/**
 * Issue 42, item 4: answers for a claimed address (a header anyone can write) never expire or
 * hide a signed-in user's intents, nor those another client claimed, and one client cannot fill
 * the bound for everyone. Small bounds (3 per user and origin, 5 per client) stand for the
 * defaults.
 */
describeWithRedis()('Claimed users cannot displace anyone (Redis)', () => {
  const suite = outcomesSuite('claimed-bounds', {
    env: {
      PUBLIC_BASE_URL: SIWE_BASE,
      AUTH_SECRET: SECRET,
      INTENT_MAX_OPEN_PER_USER: '3',
      INTENT_MAX_OPEN_PER_CLIENT: '5',
    },
    actions: [SendTokenWithHookModule, MyTransactionsModule],
  });
  let app: NestFastifyApplication;
  let victim: HDAccount;
  let session: string;

  beforeAll(async () => {
    app = await suite.start();
    victim = suite.testChain.users[0];
    session = await signInAs(
      app,
      victim.address,
      (message) => victim.signMessage({ message }),
      43113,
    );
  }, 60_000);

  /** A send-token answer: claimed for `user` from `ip`, or signed in with `token`. */
  async function answer(
    user: Address,
    { ip = '127.0.0.1', token }: { ip?: string; token?: string } = {},
  ): Promise<{ intent: string; serialized: string }> {
    const query = new URLSearchParams({ token: 'USDC', amount: '1', recipient: recipient() });
    const response = await app.inject({
      method: 'POST',
      url: `/api/send-token?${query.toString()}`,
      remoteAddress: ip,
      headers: token ? { authorization: `Bearer ${token}` } : { 'x-wallet-address': user },
    });
    expect(response.statusCode).toBe(200);
    const intent = response.headers['x-action-intent'];
    expect(typeof intent).toBe('string');
    return {
      intent: intent as string,
      serialized: response.json<{ serializedTransaction: string }>().serializedTransaction,
    };
  }
  const statusOf = async (intent: string): Promise<string | undefined> =>
    (await readIntent(app, intent)).body.data?.status;

  it("a flood of claims in the victim's name expires only the flooder's own; the victim's still settle", async () => {
    const mine = await answer(victim.address, { token: session });
    const claimedByVictim = await answer(victim.address);
    const forged = [];
    for (let i = 0; i < 6; i++) forged.push(await answer(victim.address, { ip: ATTACKER_IP }));
    // The attacker's own oldest went past 3 per user and origin (and 5 per client).
    const statuses = await Promise.all(forged.map((f) => statusOf(f.intent)));
    expect(statuses.filter((s) => s === 'expired')).toHaveLength(3);
    expect([await statusOf(mine.intent), await statusOf(claimedByVictim.intent)]).toEqual([
      'answered',
      'answered',
    ]);
    // The verified listing shows what the victim answered signed in, not what others claimed.
    const listed = await app.inject({
      method: 'POST',
      url: '/api/my-transactions',
      headers: { authorization: `Bearer ${session}` },
    });
    const ids = listed
      .json<{ data: { transactions: { intent: string }[] } }>()
      .data.transactions.map((t) => t.intent);
    expect(ids).toEqual([mine.intent]);
    await signAndSend(suite.testChain.chain, victim, mine.serialized);
    await signAndSend(suite.testChain.chain, victim, claimedByVictim.serialized);
    await heard(mine.intent, 'confirmed');
    await heard(claimedByVictim.intent, 'confirmed');
  });

  it('one client claiming many addresses holds at most its bound; others still get intents', async () => {
    const flood = [];
    // Eight answers, two for each funded user: under 3 per user, over 5 for the client.
    for (let i = 0; i < 8; i++) {
      flood.push(await answer(suite.testChain.users[i % 4].address, { ip: '198.51.100.7' }));
    }
    const open = (await Promise.all(flood.map((f) => statusOf(f.intent)))).filter(
      (s) => s === 'answered',
    );
    expect(open).toHaveLength(5);
    const honest = suite.testChain.users[1];
    expect((await answer(honest.address, { ip: '192.0.2.44' })).intent).toHaveLength(32);
    expect((await answer(victim.address, { token: session })).intent).toHaveLength(32);
  });
});
