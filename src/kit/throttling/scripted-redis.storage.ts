import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';
import type { ThrottlerRecord } from './memory-throttler.storage';

const COMMAND = 'throttlerIncrement';
type Scripted = Redis & Record<typeof COMMAND, (...args: (string | number)[]) => Promise<unknown>>;

/**
 * @nest-lab/throttler-storage-redis's store, its script run by SHA. The library sends the whole
 * Lua source (about 900 bytes) with every count (EVAL), which Node encodes and Redis hashes each
 * time, twice per request. ioredis's defineCommand sends EVALSHA instead, and the source once
 * more whenever Redis answers NOSCRIPT (a restart, SCRIPT FLUSH). The keys, the script and the
 * record are the library's.
 */
export class ScriptedRedisStorage extends ThrottlerStorageRedisService {
  private readonly scripted: Scripted;

  constructor(redis: Redis) {
    super(redis);
    redis.defineCommand(COMMAND, { numberOfKeys: 2, lua: this.scriptSrc });
    this.scripted = redis as Scripted;
  }

  override async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerRecord> {
    const keys = [`{${key}:${throttlerName}}:hits`, `{${key}:${throttlerName}}:blocked`];
    const answer = await this.scripted[COMMAND](...keys, throttlerName, ttl, limit, blockDuration);
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
}
