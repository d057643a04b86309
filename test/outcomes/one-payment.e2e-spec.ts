import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Address, Hash, HDAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signAndSend } from '../../src/testing';
import { outcomesSuite } from '../support/outcomes-suite.helper';
import {
  heard,
  heardOutcomes,
  readIntent,
  reportHash,
  sendTokenIntent,
  type IntentAnswer,
} from '../support/outcomes.helper';
import { describeWithRedis } from '../support/redis.helper';

const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/**
 * Issue 42: one mined transaction settles at most one intent, and only one it was answered for,
 * whatever a client reports and whatever the follower reads back. A shop ships goods on
 * `transaction.confirmed`, so each scenario counts the confirmations the hooks and the signed
 * webhooks announce. Each of them settled a second intent (or the wrong one) before answers were
 * tagged.
 */
describeWithRedis()('One payment settles one intent (Redis, the follower, reports)', () => {
  const suite = outcomesSuite('one-payment', { webhooks: true });
  let app: NestFastifyApplication;
  const start = (): Promise<NestFastifyApplication> => suite.start();
  beforeAll(async () => {
    app = await start();
  }, 60_000);

  const answer = (
    user: HDAccount | Address,
    params: Record<string, string>,
  ): Promise<IntentAnswer> =>
    sendTokenIntent(app, params, typeof user === 'string' ? user : user.address);
  const pay = async (user: HDAccount, answered: IntentAnswer): Promise<Hash> =>
    (await signAndSend(suite.testChain.chain, user, answered.body.serializedTransaction as string))
      .receipt.transactionHash;
  const statusOf = async (intent: string): Promise<string | undefined> =>
    (await readIntent(app, intent)).body.data?.status;
  const confirmations = (intent: string): number =>
    heardOutcomes.filter((o) => o.intent.id === intent && o.status === 'confirmed').length;
  const webhooksOf = (intent: string): number =>
    suite.receiver.received.filter((r) => r.body.includes(intent)).length;

  /**
   * Waits until the follower has read past every block mined so far: a fresh answer, paid in a
   * later block, is heard confirmed. An event to wait on, not a sleep.
   */
  async function followedPastHead(user: HDAccount): Promise<void> {
    const sentinel = await answer(user, { token: 'AVAX', recipient: recipient(), amount: '0.01' });
    await pay(user, sentinel);
    await heard(sentinel.intent, 'confirmed');
  }

  it('the same send-token answered twice and paid once, its hash reported for both: one confirmed, one webhook', async () => {
    const user = suite.testChain.users[0];
    const params = { token: 'USDC', recipient: recipient(), amount: '1.5' };
    const [a, b] = [await answer(user, params), await answer(user, params)];
    expect(a.body.serializedTransaction).not.toBe(b.body.serializedTransaction);
    const hash = await pay(user, a);
    expect(await reportHash(app, b.intent, hash)).toMatchObject({
      status: 422,
      body: { data: { code: 'HASH_MISMATCH' } },
    });
    expect((await reportHash(app, a.intent, hash)).status).toBe(200);
    const outcome = await heard(a.intent, 'confirmed');
    expect(outcome.intent.hash).toBe(hash);
    await followedPastHead(user);
    expect(await statusOf(b.intent)).toBe('answered');
    await suite.receiver.until(() => webhooksOf(a.intent) > 0);
    expect([confirmations(a.intent), confirmations(b.intent)]).toEqual([1, 0]);
    expect([webhooksOf(a.intent), webhooksOf(b.intent)]).toEqual([1, 0]);
  });

  it("an answer made after a payment is never settled by it, after a restart's read-back either", async () => {
    const user = suite.testChain.users[1];
    const params = { token: 'USDC', recipient: recipient(), amount: '2' };
    const paid = await answer(user, params);
    const hash = await pay(user, paid);
    await heard(paid.intent, 'confirmed');
    const later = await answer(user, params);
    await app.close();
    app = await start();
    await followedPastHead(user);
    expect(await statusOf(later.intent)).toBe('answered');
    expect((await reportHash(app, later.intent, hash)).body.data).toMatchObject({
      code: 'HASH_MISMATCH',
    });
    expect(confirmations(later.intent)).toBe(0);
  });

  it("someone else's answer under the victim's claimed address never takes the victim's payment", async () => {
    const victim = suite.testChain.users[2];
    const params = { token: 'USDC', recipient: recipient(), amount: '3' };
    // The attacker predicts the victim's call and answers it first, claiming the victim's address.
    const forged = await answer(victim.address, params);
    const own = await answer(victim, params);
    const hash = await pay(victim, own);
    expect((await heard(own.intent, 'confirmed')).intent.hash).toBe(hash);
    await followedPastHead(victim);
    expect(await statusOf(forged.intent)).toBe('answered');
    expect(confirmations(forged.intent)).toBe(0);
  });

  it("an unrelated transaction at the answer's nonce replaces nothing: the answer signed after it confirms", async () => {
    const user = suite.testChain.users[3];
    const answered = await answer(user, { token: 'USDC', recipient: recipient(), amount: '1' });
    // A self-transfer at the nonce the answer was given at, before the wallet signs the answer.
    await suite.testChain.chain.wallet(user).sendTransaction({ to: user.address, value: 0n });
    const hash = await pay(user, answered);
    const outcome = await heard(answered.intent, 'confirmed');
    expect(outcome.intent).toMatchObject({ hash, seenAs: 'call' });
    expect(
      heardOutcomes.some((o) => o.intent.id === answered.intent && o.status === 'replaced'),
    ).toBe(false);
  });

  describe('a coin sent with no calldata (untagged: matched by call, nonce and block)', () => {
    it('a transfer mined before the answer never settles it; its report is HASH_BEFORE_ANSWER', async () => {
      const user = suite.testChain.users[0];
      const params = { token: 'AVAX', recipient: recipient(), amount: '0.3' };
      const first = await answer(user, params);
      const hash = await pay(user, first);
      await heard(first.intent, 'confirmed');
      const second = await answer(user, params);
      expect(await reportHash(app, second.intent, hash)).toMatchObject({
        status: 422,
        body: { data: { code: 'HASH_BEFORE_ANSWER' } },
      });
      await followedPastHead(user);
      expect(await statusOf(second.intent)).toBe('answered');
    });

    it('two identical answers, one payment: exactly one settles, the other refuses the hash as HASH_USED', async () => {
      const user = suite.testChain.users[1];
      const params = { token: 'AVAX', recipient: recipient(), amount: '0.4' };
      const [p, q] = [await answer(user, params), await answer(user, params)];
      expect(p.body.serializedTransaction).toBe(q.body.serializedTransaction);
      const hash = await pay(user, q);
      // The oldest answer at the transaction's nonce takes it: one payment, one order.
      await heard(p.intent, 'confirmed');
      expect(await reportHash(app, q.intent, hash)).toMatchObject({
        status: 409,
        body: { data: { code: 'HASH_USED' } },
      });
      await followedPastHead(user);
      expect(await statusOf(q.intent)).toBe('answered');
      expect([confirmations(p.intent), confirmations(q.intent)]).toEqual([1, 0]);
    });
  });
});
