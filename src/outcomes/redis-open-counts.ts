import type { RedisClient } from '../telemetry/redis/redis.provider';
import { sizesOf } from '../telemetry/redis/redis-keys';
import { claimedKey, dueKey, SHARDS } from './redis-intent.keys';

/** How old a reading of every shard may be before a new one is taken (in the background). */
export const COUNTS_FRESH_MS = 1000;

/**
 * How many intents are open, and how many of them claimed, for INTENT_MAX_OPEN and
 * INTENT_MAX_OPEN_CLAIMED: the bounds are global, and the open intents are split over
 * INTENT_SHARDS home shards (no one slot takes every create), so no one script can count them.
 * Each replica counts from a reading of every shard at most COUNTS_FRESH_MS old, plus what its
 * own writes added and removed since (the scripts say). One replica alone is exact; replicas
 * together may go past a bound by what the others recorded within that second: an approximate
 * bound, documented in docs/operating.md ("Past one Redis").
 */
export class OpenCounts {
  private open = 0;
  private claimed = 0;
  private readAt = Number.NEGATIVE_INFINITY;
  private reading?: Promise<void>;

  constructor(private readonly redis: RedisClient) {}

  /** The counts now: a first call waits for a reading, later ones refresh it in the background. */
  async current(): Promise<{ open: number; claimed: number }> {
    if (this.readAt === Number.NEGATIVE_INFINITY) await this.refresh();
    else if (Date.now() - this.readAt > COUNTS_FRESH_MS) void this.refresh().catch(() => undefined);
    return { open: this.open, claimed: this.claimed };
  }

  /** What one of this replica's writes changed: +1, -1 or 0 on each. */
  note(open: number, claimed: number): void {
    this.open = Math.max(0, this.open + open);
    this.claimed = Math.max(0, this.claimed + claimed);
  }

  /** Reads every shard's schedule and claimed set (one reading at a time). */
  refresh(): Promise<void> {
    this.reading ??= (async () => {
      try {
        const sizes = await sizesOf(this.redis, [...SHARDS.map(dueKey), ...SHARDS.map(claimedKey)]);
        const sum = (from: number): number =>
          sizes.slice(from, from + SHARDS.length).reduce((a, b) => a + b, 0);
        this.open = sum(0);
        this.claimed = sum(SHARDS.length);
        this.readAt = Date.now();
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
