import { type IntentStore, RECENT_PER_USER } from '../outcomes/intent-store';
import type { TransactionIntent } from '../outcomes/outcome.types';

const USER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const LIMITS = { perUser: 50, total: 1_000 };

/** An intent of USER (or `user`) on chain 43113, created at `createdAt`. */
export const storedIntent = (
  id: string,
  change: Partial<TransactionIntent> = {},
): TransactionIntent => ({
  id,
  action: '/api/send-token',
  chainId: 43113,
  user: USER,
  to: OTHER,
  data: '0x',
  value: '1',
  status: 'answered',
  userLevel: 'siwe',
  origin: 'siwe',
  createdAt: 1,
  updatedAt: 1,
  ...change,
});

/** A claimed intent answered to client `client`. */
const claimedIntent = (id: string, client: string, change: Partial<TransactionIntent> = {}) =>
  storedIntent(id, { userLevel: 'claimed', origin: `ip:${client}`, ...change });

/**
 * What every IntentStore must do, run against each (process memory in its unit spec, Redis in
 * test/outcomes): `make` gives an empty store.
 */
export function describeIntentStore(name: string, make: () => Promise<IntentStore>): void {
  describe(`${name}: the IntentStore contract`, () => {
    let store: IntentStore;
    beforeEach(async () => {
      store = await make();
    });

    it('replaces an intent only from the version it was read at', async () => {
      await store.create(storedIntent('a'), 100, LIMITS);
      const read = (await store.get('a'))!;
      expect(await store.replace(read, storedIntent('a', { status: 'submitted' }), 5)).toBe(true);
      // A second writer holding the same old version loses.
      expect(await store.replace(read, storedIntent('a', { status: 'expired' }), null)).toBe(false);
      expect((await store.get('a'))!.intent.status).toBe('submitted');
    });

    it('hands each due intent to one claim until its lease ends', async () => {
      await store.create(storedIntent('a'), 100, LIMITS);
      await store.create(storedIntent('b'), 300, LIMITS);
      expect(await store.claimDue(200, 1_000, 10)).toEqual([{ id: 'a', dueAt: 100 }]);
      expect(await store.claimDue(200, 1_000, 10)).toEqual([]);
      expect((await store.claimDue(1_000, 2_000, 10)).map((d) => d.id).sort()).toEqual(['a', 'b']);
    });

    it('a settled intent leaves the schedule and its user’s open intents', async () => {
      await store.create(storedIntent('a'), 100, LIMITS);
      await store.replace(
        (await store.get('a'))!,
        storedIntent('a', { status: 'confirmed' }),
        null,
      );
      expect(await store.claimDue(10_000, 20_000, 10)).toEqual([]);
      expect(await store.openOf(43113, [USER.toLowerCase()])).toEqual([]);
    });

    it('finds the open intents of a block’s senders, by chain and user, in one lookup', async () => {
      await store.create(storedIntent('a'), 100, LIMITS);
      await store.create(storedIntent('b', { user: OTHER }), 100, LIMITS);
      await store.create(storedIntent('c', { chainId: 1 }), 100, LIMITS);
      const found = await store.openOf(43113, [USER.toLowerCase(), '0x' + '1'.repeat(40)]);
      expect(found.map((s) => s.intent.id)).toEqual(['a']);
    });

    it('past the per-user bound, names the user’s oldest open intents to expire', async () => {
      const limits = { perUser: 2, total: 1_000 };
      await store.create(storedIntent('a', { createdAt: 1 }), 100, limits);
      await store.create(storedIntent('b', { createdAt: 2 }), 100, limits);
      expect(await store.create(storedIntent('c', { createdAt: 3 }), 100, limits)).toEqual({
        created: true,
        overflow: ['a'],
      });
    });

    it('claims never push out a signed-in intent, nor one another client claimed', async () => {
      const limits = { perUser: 2, total: 1_000, perClient: 100, totalClaimed: 1_000 };
      await store.create(storedIntent('mine', { createdAt: 1 }), 100, limits);
      await store.create(claimedIntent('y', 'Y', { createdAt: 2 }), 100, limits);
      const made = [];
      for (let i = 0; i < 4; i++) {
        made.push(
          await store.create(claimedIntent(`x${i}`, 'X', { createdAt: 3 + i }), 100, limits),
        );
      }
      // Past 2 from client X, X's own oldest go; the signed-in one and Y's are never named.
      expect(made.map((m) => (m.created ? m.overflow : null))).toEqual([
        [],
        [],
        ['x0'],
        ['x0', 'x1'],
      ]);
    });

    it("past the per-client bound, names that client's oldest claimed intents, whatever their users", async () => {
      const limits = { perUser: 50, total: 1_000, perClient: 2, totalClaimed: 1_000 };
      await store.create(claimedIntent('a', 'X', { createdAt: 1 }), 100, limits);
      await store.create(claimedIntent('b', 'X', { createdAt: 2, user: OTHER }), 100, limits);
      expect(
        await store.create(claimedIntent('c', 'X', { createdAt: 3, chainId: 1 }), 100, limits),
      ).toEqual({ created: true, overflow: ['a'] });
      expect(await store.create(claimedIntent('d', 'Z', { createdAt: 4 }), 100, limits)).toEqual({
        created: true,
        overflow: [],
      });
    });

    it('claimed intents fill only their own bound: signed-in ones are still recorded', async () => {
      const limits = { perUser: 50, total: 10, perClient: 100, totalClaimed: 2 };
      await store.create(claimedIntent('a', 'X'), 100, limits);
      await store.create(claimedIntent('b', 'Y'), 100, limits);
      expect(await store.create(claimedIntent('c', 'Z'), 100, limits)).toEqual({ created: false });
      expect((await store.create(storedIntent('s'), 100, limits)).created).toBe(true);
      // A claimed one settled frees its place.
      await store.replace(
        (await store.get('a'))!,
        claimedIntent('a', 'X', { status: 'expired' }),
        null,
      );
      expect((await store.create(claimedIntent('c', 'Z'), 100, limits)).created).toBe(true);
    });

    it("lists only what a user answered while signed in, not what others claimed in the user's name", async () => {
      await store.create(storedIntent('mine', { createdAt: 1 }), 100, LIMITS);
      await store.create(claimedIntent('forged', 'X', { createdAt: 2 }), 100, LIMITS);
      expect((await store.recentOf(USER, 10)).map((s) => s.intent.id)).toEqual(['mine']);
      expect(
        (await store.openOf(43113, [USER.toLowerCase()])).map((s) => s.intent.id).sort(),
      ).toEqual(['forged', 'mine']);
    });

    it('refuses a new intent at the total bound of open intents', async () => {
      const limits = { perUser: 50, total: 2 };
      await store.create(storedIntent('a'), 100, limits);
      await store.create(storedIntent('b', { user: OTHER }), 100, limits);
      expect(await store.create(storedIntent('c'), 100, limits)).toEqual({ created: false });
      expect(await store.get('c')).toBeUndefined();
    });

    it('indexes seen intents by block, and trims only settled ones below a block', async () => {
      await store.create(storedIntent('a'), 100, LIMITS);
      await store.create(storedIntent('b'), 100, LIMITS);
      const seen = (id: string, status: TransactionIntent['status'], block: string) =>
        storedIntent(id, { status, blockNumber: block, hash: `0x${'a'.repeat(64)}` });
      await store.replace((await store.get('a'))!, seen('a', 'confirmed', '5'), null);
      await store.replace((await store.get('b'))!, seen('b', 'submitted', '7'), 100);
      expect((await store.seenFrom(43113, 6n)).map((s) => s.intent.id)).toEqual(['b']);
      await store.trimSeen(43113, 100n);
      expect((await store.seenFrom(43113, 0n)).map((s) => s.intent.id)).toEqual(['b']);
      // Back to open without a block (a reorg): out of the seen index, back among the open.
      await store.replace((await store.get('b'))!, storedIntent('b'), 100);
      expect(await store.seenFrom(43113, 0n)).toEqual([]);
      expect((await store.openOf(43113, [USER.toLowerCase()])).map((s) => s.intent.id)).toEqual([
        'b',
      ]);
    });

    it('binds a hash to one intent, again to the same, and frees it only for its holder', async () => {
      const hash = `0x${'ab'.repeat(32)}`;
      expect(await store.bindHash(43113, hash, 'a')).toBe(true);
      expect(await store.bindHash(43113, hash.toUpperCase().replace('0X', '0x'), 'a')).toBe(true);
      expect(await store.bindHash(43113, hash, 'b')).toBe(false);
      // The same hash on another chain is another transaction.
      expect(await store.bindHash(1, hash, 'b')).toBe(true);
      await store.unbindHash(43113, hash, 'b');
      expect(await store.bindHash(43113, hash, 'b')).toBe(false);
      await store.unbindHash(43113, hash, 'a');
      expect(await store.bindHash(43113, hash, 'b')).toBe(true);
    });

    it('notes skipped ranges by chain, and says whether one reaches a block', async () => {
      await store.noteSkipped(43113, 100n, 200n);
      expect(await store.skippedSince(43113, 150n)).toBe(true);
      expect(await store.skippedSince(43113, 200n)).toBe(true);
      expect(await store.skippedSince(43113, 201n)).toBe(false);
      expect(await store.skippedSince(1, 0n)).toBe(false);
    });

    it('writes an outcome to the outbox with its transition, and hands it to one taker at a time', async () => {
      await store.create(storedIntent('a'), 100, LIMITS);
      const next = storedIntent('a', { status: 'confirmed' });
      const outcome = {
        status: 'confirmed' as const,
        deliveryId: 'a.confirmed',
        intent: next,
        occurredAt: 5,
      };
      // A lost compare-and-set writes neither.
      const stale = { intent: storedIntent('a'), version: 'stale' };
      expect(
        await store.replace(stale, next, null, {
          deliveryId: 'a.confirmed',
          outcome,
          leaseUntil: 50,
        }),
      ).toBe(false);
      expect(await store.outboxTake(1_000, 2_000, 10)).toEqual([]);
      expect(
        await store.replace((await store.get('a'))!, next, null, {
          deliveryId: 'a.confirmed',
          outcome,
          leaseUntil: 50,
        }),
      ).toBe(true);
      // Leased to its writer until 50; then one taker holds it until its own lease ends.
      expect(await store.outboxTake(40, 100, 10)).toEqual([]);
      expect(await store.outboxTake(60, 100, 10)).toEqual([{ deliveryId: 'a.confirmed', outcome }]);
      expect(await store.outboxTake(60, 100, 10)).toEqual([]);
      expect((await store.outboxTake(100, 200, 10)).map((e) => e.deliveryId)).toEqual([
        'a.confirmed',
      ]);
      await store.outboxDone('a.confirmed');
      expect(await store.outboxTake(10_000, 20_000, 10)).toEqual([]);
    });

    it('lists a user’s recent intents on every chain, settled ones too, newest first, bounded', async () => {
      await store.create(storedIntent('a', { createdAt: 1 }), 100, LIMITS);
      await store.create(storedIntent('b', { createdAt: 2, chainId: 1 }), 100, LIMITS);
      await store.create(storedIntent('o', { createdAt: 3, user: OTHER }), 100, LIMITS);
      await store.create(storedIntent('c', { createdAt: 4 }), 100, LIMITS);
      const a = (await store.get('a'))!;
      await store.replace(a, storedIntent('a', { status: 'confirmed' }), null);
      const ids = async (user: string, limit: number): Promise<string[]> =>
        (await store.recentOf(user, limit)).map((s) => s.intent.id);
      expect(await ids(USER.toLowerCase(), 10)).toEqual(['c', 'b', 'a']);
      expect(await ids(USER, 2)).toEqual(['c', 'b']);
      expect(await ids(OTHER, 10)).toEqual(['o']);
      expect((await store.recentOf(USER, 10))[2].intent.status).toBe('confirmed');
    });

    it(`keeps a user's newest ${RECENT_PER_USER} intents in the index`, async () => {
      const limits = { perUser: RECENT_PER_USER + 10, total: 10_000 };
      for (let i = 0; i < RECENT_PER_USER + 5; i++) {
        await store.create(storedIntent(`i${i}`, { createdAt: i + 1 }), 100, limits);
      }
      const listed = await store.recentOf(USER, RECENT_PER_USER + 5);
      expect(listed).toHaveLength(RECENT_PER_USER);
      expect(listed[0].intent.id).toBe(`i${RECENT_PER_USER + 4}`);
      expect(listed.at(-1)!.intent.id).toBe('i5');
    });
  });
}
