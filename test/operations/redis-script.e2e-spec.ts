import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import Redis, { type Command } from 'ioredis';
import type { ThrottlerRecord } from '../../src/kit/throttling/memory-throttler.storage';
import {
  ScriptedRedisStorage,
  THROTTLER_SCRIPT,
} from '../../src/kit/throttling/scripted-redis.storage';
import {
  deleteKeys,
  describeWithRedis,
  freePort,
  REDIS_TEST_URL,
  runKeyPrefix,
  startRedisServer,
  stopRedisServer,
} from '../support/redis.helper';

/** Names of the commands `redis` sends from now on. */
function recordCommands(redis: Redis): string[] {
  const sent: string[] = [];
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command: Command, ...rest: unknown[]): unknown => {
    sent.push(command.name);
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  };
  return sent;
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

/**
 * The store of @nest-lab/throttler-storage-redis 1.2.0, which the service used until NestJS 12
 * (the library's peers stop at 11): the script sent whole with each count (EVAL), the same keys,
 * its checks and record. The reference our store is compared with.
 */
class LibraryStore {
  constructor(private readonly redis: Redis) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerRecord> {
    const hitKey = `{${key}:${throttlerName}}:hits`;
    const blockKey = `{${key}:${throttlerName}}:blocked`;
    const results = await this.redis.call(
      'eval',
      THROTTLER_SCRIPT,
      2,
      hitKey,
      blockKey,
      throttlerName,
      ttl,
      limit,
      blockDuration,
    );
    if (!Array.isArray(results) || !results.every((each) => typeof each === 'number')) {
      throw new TypeError(`Expected result to be array of numbers, got ${String(results)}`);
    }
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = results;
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
  }
}

/**
 * The Redis rate-limit store runs the library's script by SHA: the same records as the library's
 * own store, EVALSHA on the wire, and the source sent again when Redis no longer knows it.
 */
describeWithRedis()('The Redis rate-limit store', () => {
  const prefix = runKeyPrefix('script');
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(REDIS_TEST_URL, { keyPrefix: prefix });
  });
  afterAll(async () => {
    const admin = new Redis(REDIS_TEST_URL);
    await deleteKeys(admin, prefix);
    await Promise.all([admin.quit(), redis.quit()]);
  });

  it('runs the script of @nest-lab/throttler-storage-redis 1.2.0, byte for byte', () => {
    // The SHA Redis caches it under: replicas of either version share the script and counters.
    expect(sha1(new ScriptedRedisStorage(redis).scriptSrc)).toBe(
      'f1e0da9c495676ab6904eb80db1f2811d5347f58',
    );
  });

  it("counts, blocks and times out as the library's own store does", async () => {
    const ours = new ScriptedRedisStorage(redis);
    const library = new LibraryStore(redis);
    for (let hit = 1; hit <= 4; hit++) {
      const [mine, theirs] = await Promise.all([
        ours.increment('ours', 60_000, 2, 30_000, 'user'),
        library.increment('library', 60_000, 2, 30_000, 'user'),
      ]);
      expect(mine).toEqual(theirs);
      expect(mine).toMatchObject({ totalHits: hit, isBlocked: hit > 2 });
    }
  });

  it("counts several limits in one EVALSHA, each as the library's own store does", async () => {
    const ours = new ScriptedRedisStorage(redis);
    const library = new LibraryStore(redis);
    // Loads the script: the calls counted below are EVALSHA only.
    await ours.incrementAll([]);
    const sent = recordCommands(redis);
    for (let hit = 1; hit <= 4; hit++) {
      const [user, ip] = await ours.incrementAll([
        { key: 'all-user', ttl: 60_000, limit: 2, blockDuration: 30_000, name: 'user' },
        { key: 'all-ip', ttl: 20_000, limit: 3, blockDuration: 20_000, name: 'ip' },
      ]);
      const [theirUser, theirIp] = await Promise.all([
        library.increment('lib-user', 60_000, 2, 30_000, 'user'),
        library.increment('lib-ip', 20_000, 3, 20_000, 'ip'),
      ]);
      expect([user, ip]).toEqual([theirUser, theirIp]);
      expect([user.isBlocked, ip.isBlocked]).toEqual([hit > 2, hit > 3]);
    }
    expect(sent.filter((name) => name === 'evalsha')).toHaveLength(4);
  });

  it('sends EVALSHA, never the source, while Redis knows the script', async () => {
    const store = new ScriptedRedisStorage(redis);
    await store.increment('warm', 60_000, 10, 60_000, 'ip');
    const sent = recordCommands(redis);
    for (let i = 0; i < 5; i++) await store.increment('sha', 60_000, 10, 60_000, 'ip');
    expect(sent).toEqual(Array(5).fill('evalsha'));
  });

  describe('on a Redis that forgot its scripts', () => {
    let server: ChildProcess;
    let own: Redis;

    beforeAll(async () => {
      const port = await freePort();
      server = await startRedisServer(port);
      own = new Redis({ port, host: '127.0.0.1' });
    });
    afterAll(async () => {
      own.disconnect();
      await stopRedisServer(server);
    });

    it('sends the source once more and counts on', async () => {
      const store = new ScriptedRedisStorage(own);
      await store.increment('key', 60_000, 10, 60_000, 'ip');
      await own.script('FLUSH');
      const sha = sha1(store.scriptSrc);
      expect(await own.script('EXISTS', sha)).toEqual([0]);
      const record = await store.increment('key', 60_000, 10, 60_000, 'ip');
      expect(record.totalHits).toBe(2);
      expect(await own.script('EXISTS', sha)).toEqual([1]);
    });
  });
});
