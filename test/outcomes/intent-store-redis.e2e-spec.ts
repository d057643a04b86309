import Redis from 'ioredis';
import { shardOf } from '../../src/outcomes/redis-intent.keys';
import { RedisIntentStore } from '../../src/outcomes/redis-intent.store';
import { describeIntentStore, storedIntent } from '../../src/testing/intent-store.contract';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';

/** The Lua scripts of the shared store, on a real Redis, under the same contract as memory's. */
describeWithRedis()('RedisIntentStore', () => {
  const prefixes: string[] = [];
  const clients: Redis[] = [];
  let admin: Redis;

  beforeAll(() => {
    admin = new Redis(REDIS_TEST_URL);
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(admin, prefix);
    await Promise.all([admin, ...clients].map((c) => c.quit()));
  });

  /** A store with a key prefix of its own, as the service's client has (REDIS_KEY_PREFIX). */
  const fresh = (): RedisIntentStore => {
    const prefix = runKeyPrefix(`intent-store-${prefixes.length}`);
    prefixes.push(prefix);
    const client = new Redis(REDIS_TEST_URL, { keyPrefix: prefix });
    clients.push(client);
    return new RedisIntentStore(client, 60_000);
  };

  describeIntentStore('RedisIntentStore', () => Promise.resolve(fresh()));

  it('every key an intent writes carries the prefix and a hash tag, and expires, but the per-chain indexes, the schedules and the claimed sets', async () => {
    const store = fresh();
    const prefix = prefixes[prefixes.length - 1];
    const limits = { perUser: 50, total: 100, perClient: 10, totalClaimed: 50 };
    await store.create(storedIntent('a'), 100, limits);
    const claimed = { userLevel: 'claimed', origin: 'ip:X' } as const;
    await store.create(storedIntent('b', claimed), 100, limits);
    const read = (await store.get('a'))!;
    await store.replace(read, storedIntent('a', { status: 'submitted', blockNumber: '3' }), 100);
    await store.bindHash(43113, `0x${'ab'.repeat(32)}`, 'b');
    const keys = (await admin.keys(`${prefix}*`)).map((k) => k.slice(prefix.length)).sort();
    const user = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
    const home = (id: string): string => `{intents:${shardOf(id)}}`;
    expect(keys).toEqual(
      [
        'intent-hash:43113:0x' + 'ab'.repeat(32),
        `intent:${home('a')}:a`,
        `intent:${home('b')}:b`,
        `intents:claimed:${home('b')}`,
        'intents:client:{client:ip:X}',
        ...new Set([`intents:due:${home('a')}`, `intents:due:${home('b')}`]),
        `intents:open:{user:${user}}:43113`,
        `intents:open:{user:${user}}:43113:ip:X`,
        `intents:open:{user:${user}}:43113:siwe`,
        'intents:seen:{chain:43113}',
        `intents:user:{user:${user}}`,
      ].sort(),
    );
    const lasting = (k: string): boolean => /^intents:(claimed|due|seen):/.test(k);
    for (const key of keys.filter((k) => !lasting(k))) {
      expect([key, await admin.pttl(`${prefix}${key}`)]).toEqual([key, expect.any(Number)]);
      expect(await admin.pttl(`${prefix}${key}`)).toBeGreaterThan(0);
    }
  });
});
