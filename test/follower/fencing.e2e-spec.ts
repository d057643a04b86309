import Redis from 'ioredis';
import { FencedError } from '../../src/follower/follower-state';
import { RedisFollowerState } from '../../src/follower/redis-follower.state';
import { RedisIntentStore } from '../../src/outcomes/redis-intent.store';
import { storedIntent } from '../../src/testing/intent-store.contract';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';

const CHAIN = 43113;
const hash = (n: number): `0x${string}` => `0x${n.toString(16).padStart(64, '0')}`;

/**
 * Issue 43, fencing: a follower that paused past its lease while another replica took over holds
 * an old token, and every write it makes then (the cursor, a rewind, an intent it settles) is
 * refused in the same script that would make it. The lease's lapse is its key's expiry, done here
 * at once (the pause), rather than waited for.
 */
describeWithRedis()("The follower's lease fences its writes (Redis)", () => {
  const prefix = runKeyPrefix('fencing');
  let admin: Redis;
  let client: Redis;
  let state: RedisFollowerState;

  beforeAll(() => {
    admin = new Redis(REDIS_TEST_URL);
    client = new Redis(REDIS_TEST_URL, { keyPrefix: prefix });
    state = new RedisFollowerState(client);
  });

  afterAll(async () => {
    await deleteKeys(admin, prefix);
    await Promise.all([admin.quit(), client.quit()]);
  });

  it('a stale follower writes nothing once another took over: not the cursor, a rewind, nor an intent', async () => {
    const stale = (await state.lease(CHAIN, 'replica-a', 60_000))!;
    expect(await state.lease(CHAIN, 'replica-a', 60_000)).toEqual(stale);
    expect(await state.lease(CHAIN, 'replica-b', 60_000)).toBeUndefined();
    await state.advance(stale, { number: 10n, hash: hash(10) }, 64);
    // replica-a pauses past its lease; replica-b takes over with a newer token and moves on.
    await admin.del(`${prefix}follower:{chain:${CHAIN}}:lease`);
    const current = (await state.lease(CHAIN, 'replica-b', 60_000))!;
    expect(current.token).toBeGreaterThan(stale.token);
    await state.advance(current, { number: 12n, hash: hash(12) }, 64);
    // replica-a resumes: every write is refused, and its lease is not its own any more.
    await expect(state.advance(stale, { number: 11n, hash: hash(11) }, 64)).rejects.toThrow(
      FencedError,
    );
    await expect(state.rewind(stale, { number: 5n, hash: hash(5) })).rejects.toThrow(FencedError);
    expect(await state.cursor(CHAIN)).toEqual({ number: 12n, hash: hash(12) });
    expect(await state.lease(CHAIN, 'replica-a', 60_000)).toBeUndefined();

    const store = new RedisIntentStore(client, 60_000);
    const limits = { perUser: 50, total: 100 };
    await store.create(storedIntent('a'), 100, limits);
    const read = (await store.get('a'))!;
    const settled = storedIntent('a', { status: 'confirmed', blockNumber: '11' });
    await expect(store.replace(read, settled, null, undefined, stale)).rejects.toThrow(FencedError);
    expect((await store.get('a'))!.intent.status).toBe('answered');
    expect(await store.replace(read, settled, null, undefined, current)).toBe(true);
    // Handed back by its holder only: replica-a's release leaves replica-b's lease.
    await state.release(CHAIN, 'replica-a');
    expect(await state.lease(CHAIN, 'replica-b', 60_000)).toEqual(current);
    await state.release(CHAIN, 'replica-b');
    expect(await admin.exists(`${prefix}follower:{chain:${CHAIN}}:lease`)).toBe(0);
  });
});
