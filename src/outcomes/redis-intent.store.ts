import type Redis from 'ioredis';
import {
  type DueIntent,
  type IntentStore,
  readIntent,
  serializeIntent,
  type StoredIntent,
} from './intent-store';
import type { TransactionIntent } from './outcome.types';

/** Compare-and-set of one intent, with its place in the schedule, in one step. */
const REPLACE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if ARGV[4] == '' then redis.call('ZREM', KEYS[2], ARGV[5])
else redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5]) end
return 1`;

/** Takes the due ids and leases them, so replicas polling at once share the work, never repeat it. */
const CLAIM_DUE = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[3])
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[2], due[i]) end
return due`;

/**
 * Intents shared by every replica, on the service's Redis client (its key prefix applies):
 * `intent:<id>` holds the JSON, `intents:due` the watcher's schedule (a sorted set by due time),
 * `intent-claim:<id>:<status>` the hooks' once-only marks. Every key expires.
 */
export class RedisIntentStore implements IntentStore {
  private static readonly DUE = 'intents:due';

  constructor(
    private readonly redis: Redis,
    private readonly retentionMs: number,
  ) {}

  async create(intent: TransactionIntent, dueAt: number): Promise<void> {
    await this.redis
      .multi()
      .set(key(intent.id), serializeIntent(intent), 'PX', this.retentionMs)
      .zadd(RedisIntentStore.DUE, dueAt, intent.id)
      .exec();
  }

  async get(id: string): Promise<StoredIntent | undefined> {
    const version = await this.redis.get(key(id));
    return version === null ? undefined : readIntent(version);
  }

  async replace(
    current: StoredIntent,
    next: TransactionIntent,
    dueAt: number | null,
  ): Promise<boolean> {
    const done = await this.redis.eval(
      REPLACE,
      2,
      key(next.id),
      RedisIntentStore.DUE,
      current.version,
      serializeIntent(next),
      this.retentionMs,
      dueAt === null ? '' : dueAt,
      next.id,
    );
    return done === 1;
  }

  async claimDue(now: number, leaseUntil: number, limit: number): Promise<DueIntent[]> {
    const flat = (await this.redis.eval(
      CLAIM_DUE,
      1,
      RedisIntentStore.DUE,
      now,
      leaseUntil,
      limit,
    )) as string[];
    const due: DueIntent[] = [];
    for (let i = 0; i < flat.length; i += 2) due.push({ id: flat[i], dueAt: Number(flat[i + 1]) });
    return due;
  }

  async claimOnce(claim: string): Promise<boolean> {
    const set = await this.redis.set(`intent-claim:${claim}`, '1', 'PX', this.retentionMs, 'NX');
    return set === 'OK';
  }

  async forget(id: string): Promise<void> {
    await this.redis.zrem(RedisIntentStore.DUE, id);
  }
}

const key = (id: string): string => `intent:${id}`;
