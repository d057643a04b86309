import type { RedisClient } from '../telemetry/redis/redis.provider';
import { getMany } from '../telemetry/redis/redis-keys';
import { isOpen, readIntent, type StoredIntent } from './intent-store';
import type { TransactionIntent } from './outcome.types';
import { key } from './redis-intent.keys';
import type { Scripted } from './redis-intent.scripts';

/**
 * How long an index may name an intent not written yet: a create adds the intent to its user's
 * and client's sets a round trip before it writes the intent itself (redis-intent.store.ts), so a
 * reader drops a missing intent from an index only once its score (the answer's time) is older.
 */
export const INDEX_GRACE_MS = 60_000;

/** An index's members with their scores, as ZRANGE … WITHSCORES answers: id, score, id, score… */
export type Scored = string[];

/**
 * The reads of RedisIntentStore: an index (in its user's or chain's slot) names ids, and the
 * intents are read from their home shards. An index may name more than it should (it is written
 * before the intent and cleaned after it, so that it never names less): each read keeps what the
 * intent itself says, and drops from the index what can never belong there again.
 */
export class IntentReads {
  constructor(
    private readonly redis: RedisClient,
    private readonly scripted: Scripted,
  ) {}

  /**
   * The intents an index names that `keep` accepts. Dropped from `index`: intents that `stale`
   * says can never belong there again, and missing ones older than INDEX_GRACE_MS.
   */
  async named(
    index: string,
    members: Scored,
    keep: (intent: TransactionIntent) => boolean,
    stale: (intent: TransactionIntent) => boolean = () => false,
  ): Promise<StoredIntent[]> {
    const ids: string[] = [];
    const scores: number[] = [];
    for (let i = 0; i < members.length; i += 2) {
      ids.push(members[i]);
      scores.push(Number(members[i + 1]));
    }
    const versions = await getMany(this.redis, ids.map(key));
    const found: StoredIntent[] = [];
    const gone: string[] = [];
    const oldest = Date.now() - INDEX_GRACE_MS;
    versions.forEach((version, i) => {
      if (version === null) {
        if (scores[i] < oldest) gone.push(ids[i]);
        return;
      }
      const stored = readIntent(version);
      if (keep(stored.intent)) found.push(stored);
      else if (stale(stored.intent)) gone.push(ids[i]);
    });
    if (gone.length > 0) await this.scripted.intentIndexRemove1(index, ...gone);
    return found;
  }

  /** Open, and the user's on this chain: what a user's open set must name. */
  static openOn(chainId: number, user: string): (intent: TransactionIntent) => boolean {
    return (intent) =>
      isOpen(intent) && intent.chainId === chainId && intent.user.toLowerCase() === user;
  }
}
