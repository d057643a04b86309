import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';
import type { CountsTogether, LimitCount } from './store-abilities';
import type { ThrottlerRecord } from './memory-throttler.storage';

const ONE = 'throttlerIncrement';
const ALL = 'throttlerIncrementAll';
type Command = (...args: (string | number)[]) => Promise<unknown>;
type Scripted = Redis & Record<typeof ONE | typeof ALL, Command>;

/**
 * The library's script as a Lua function of its own KEYS and ARGV (the parameters shadow the
 * globals), run for each pair of keys and four arguments: its records, in the counts' order.
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
 * @nest-lab/throttler-storage-redis's store, its script run by SHA. The library sends the whole
 * Lua source (about 900 bytes) with every count (EVAL), which Node encodes and Redis hashes each
 * time. ioredis's defineCommand sends EVALSHA instead, and the source once more whenever Redis
 * answers NOSCRIPT (a restart, SCRIPT FLUSH). `incrementAll` runs the same script for several
 * limits in one call: the keys (several slots: one Redis, not a Cluster), the script and the
 * record are the library's.
 */
export class ScriptedRedisStorage extends ThrottlerStorageRedisService implements CountsTogether {
  private readonly scripted: Scripted;

  constructor(redis: Redis) {
    super(redis);
    redis.defineCommand(ONE, { numberOfKeys: 2, lua: this.scriptSrc });
    // Without numberOfKeys: the key count is the command's first argument.
    redis.defineCommand(ALL, { lua: eachCount(this.scriptSrc) });
    this.scripted = redis as Scripted;
  }

  override async increment(
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
