import type { ThrottlerStorage } from '@nestjs/throttler';
import { isCluster, type RedisClient } from '../../telemetry/redis/redis.provider';
import type { CountsTogether, LimitCount } from './store-abilities';
import type { ThrottlerRecord } from './memory-throttler.storage';

const ONE = 'throttlerIncrement';
const ALL = 'throttlerIncrementAll';
type Command = (...args: (string | number)[]) => Promise<unknown>;
type Scripted = RedisClient & Record<typeof ONE | typeof ALL, Command>;

/**
 * One counter: KEYS = its hits and blocked keys, ARGV = name, ttl ms, limit, block ms. Answers
 * { totalHits, ms to the window's end, blocked 1/0, ms to the block's end }. Over the limit the
 * counter is blocked for the block duration; once the block has run out it starts afresh at 1.
 *
 * Credit: the script of @nest-lab/throttler-storage-redis 1.2.0 (MIT, jmcdo29/nest-lab; itself
 * after wyattjoh/rate-limit-redis), byte for byte as that version sent it (its source with
 * leading whitespace removed: SHA-1 f1e0da9c495676ab6904eb80db1f2811d5347f58), so replicas of the
 * version that used the library and of this one share Redis's script cache and counters. The
 * library's peers stop at NestJS 11; the store below is our own.
 */
export const THROTTLER_SCRIPT = [
  'local hitKey = KEYS[1]',
  'local blockKey = KEYS[2]',
  'local throttlerName = ARGV[1]',
  'local ttl = tonumber(ARGV[2])',
  'local limit = tonumber(ARGV[3])',
  'local blockDuration = tonumber(ARGV[4])',
  "local totalHits = redis.call('INCR', hitKey)",
  "local timeToExpire = redis.call('PTTL', hitKey)",
  'if timeToExpire <= 0 then',
  "redis.call('PEXPIRE', hitKey, ttl)",
  'timeToExpire = ttl',
  'end',
  "local isBlocked = redis.call('GET', blockKey)",
  'local timeToBlockExpire = 0',
  'if isBlocked then',
  "timeToBlockExpire = redis.call('PTTL', blockKey)",
  'elseif totalHits > limit then',
  "redis.call('SET', blockKey, 1, 'PX', blockDuration)",
  "isBlocked = '1'",
  'timeToBlockExpire = blockDuration',
  'end',
  'if isBlocked and timeToBlockExpire <= 0 then',
  "redis.call('DEL', blockKey)",
  "redis.call('SET', hitKey, 1, 'PX', ttl)",
  'totalHits = 1',
  'timeToExpire = ttl',
  'isBlocked = false',
  'end',
  'return { totalHits, timeToExpire, isBlocked and 1 or 0, timeToBlockExpire }',
].join('\n');

/**
 * The script as a Lua function of its own KEYS and ARGV (the parameters shadow the globals),
 * run for each pair of keys and four arguments: its records, in the counts' order.
 */
const eachCount = (script: string): string => `
local function count(KEYS, ARGV)
${script}
end
local records = {}
for i = 1, #KEYS / 2 do
  records[i] = count({ KEYS[2 * i - 1], KEYS[2 * i] },
    { ARGV[4 * i - 3], ARGV[4 * i - 2], ARGV[4 * i - 1], ARGV[4 * i] })
end
return records`;

/**
 * The Redis counters' store, its script run by SHA. The library it replaces sent the whole Lua
 * source (about 900 bytes) with every count (EVAL), which Node encodes and Redis hashes each
 * time. ioredis's defineCommand sends EVALSHA instead, and the source once more whenever Redis
 * answers NOSCRIPT (a restart, SCRIPT FLUSH). `incrementAll` runs the same script for several
 * limits in one call on one server; on a Redis Cluster the limits' keys are in several slots
 * (each counter's two keys share the tag `{<key>:<name>}`), so each limit is one call there, the
 * calls sent together. The keys, the script and the record are the library's. The client is the
 * caller's: the store never connects or quits it.
 */
export class ScriptedRedisStorage implements ThrottlerStorage, CountsTogether {
  readonly scriptSrc = THROTTLER_SCRIPT;
  private readonly scripted: Scripted;
  private readonly cluster: boolean;

  constructor(readonly redis: RedisClient) {
    this.cluster = isCluster(redis);
    redis.defineCommand(ONE, { numberOfKeys: 2, lua: this.scriptSrc });
    // Without numberOfKeys: the key count is the command's first argument.
    redis.defineCommand(ALL, { lua: eachCount(this.scriptSrc) });
    this.scripted = redis as Scripted;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerRecord> {
    const [hits, blocked] = keysOf(key, throttlerName);
    return toRecord(
      await this.scripted[ONE](hits, blocked, throttlerName, ttl, limit, blockDuration),
    );
  }

  async incrementAll(counts: readonly LimitCount[]): Promise<ThrottlerRecord[]> {
    if (this.cluster) {
      return Promise.all(
        counts.map((c) => this.increment(c.key, c.ttl, c.limit, c.blockDuration, c.name)),
      );
    }
    const keys = counts.flatMap(({ key, name }) => keysOf(key, name));
    const args = counts.flatMap(({ name, ttl, limit, blockDuration }) => [
      name,
      ttl,
      limit,
      blockDuration,
    ]);
    const answer = await this.scripted[ALL](keys.length, ...keys, ...args);
    if (!Array.isArray(answer) || answer.length !== counts.length) {
      throw new TypeError(`The rate-limit script answered ${String(answer)}`);
    }
    return answer.map(toRecord);
  }
}

/** The library's two keys of a counter. */
const keysOf = (key: string, name: string): [string, string] => [
  `{${key}:${name}}:hits`,
  `{${key}:${name}}:blocked`,
];

/** The library's record of the script's answer. */
function toRecord(answer: unknown): ThrottlerRecord {
  if (!Array.isArray(answer) || !answer.every((each) => typeof each === 'number')) {
    throw new TypeError(`The rate-limit script answered ${String(answer)}`);
  }
  const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = answer;
  return {
    totalHits,
    timeToExpire: Math.ceil(timeToExpire / 1000),
    isBlocked: isBlocked === 1,
    timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
  };
}
