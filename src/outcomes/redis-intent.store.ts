import type { Redis } from 'ioredis';
import { type Fence, FencedError } from '../follower/follower-state';
import { fenceKey } from '../follower/redis-follower.state';
import type { TransactionIntent, TransactionOutcome } from './outcome.types';
import {
  type Announcement,
  type Created,
  type DueIntent,
  hashKey,
  type IntentStore,
  isClaimed,
  isOpen,
  type OpenLimits,
  type OutboxEntry,
  readIntent,
  RECENT_PER_USER,
  serializeIntent,
  SKIPS_KEPT,
  type StoredIntent,
} from './intent-store';
import {
  clientKey,
  key,
  openKey,
  originSetKey,
  OUTBOX,
  OUTBOX_DUE,
  recentKey,
  type Scripted,
  seenKey,
} from './redis-intent.keys';
import {
  BIND_HASH,
  CLAIM_DUE,
  CREATE,
  OPEN_OF,
  OUTBOX_TAKE,
  RECENT_OF,
  REPLACE,
  SEEN_FROM,
  TRIM_SEEN,
  UNBIND_HASH,
} from './redis-intent.scripts';

/**
 * Intents shared by every replica, on the service's Redis client (its key prefix applies):
 * `intent:<id>` holds the JSON; `intents:due` is the expiry schedule of open intents (its size is
 * the number open); `intents:open:<chain>:<user>` a user's open intents by age;
 * `intents:seen:<chain>` the intents seen in a block, by block; `intents:user:<user>` a user's
 * RECENT_PER_USER newest intents answered while signed in, on every chain;
 * `intents:open:<chain>:<user>:<origin>` a user's open intents from one origin,
 * `intents:client:<origin>` a claiming client's open intents, `intents:claimed` every claimed open
 * one (the bounds of OpenLimits); `outbox` and `outbox:due` the outcomes to
 * deliver and their leases; `intent-hash:<chain>:<hash>` the intent an untagged transaction settles;
 * `follower-skips:<chain>` the block ranges the follower skipped unread. Every key but the two per-chain and the schedule expires; those are
 * trimmed by the follower and the expiry watcher.
 */
export class RedisIntentStore implements IntentStore {
  private static readonly DUE = 'intents:due';
  /** The open intents of claimed users: what INTENT_MAX_OPEN_CLAIMED bounds. */
  private static readonly CLAIMED = 'intents:claimed';
  private readonly scripted: Scripted;
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly retentionMs: number,
  ) {
    redis.defineCommand('intentCreate', { numberOfKeys: 7, lua: CREATE });
    redis.defineCommand('intentRecentOf', { numberOfKeys: 1, lua: RECENT_OF });
    redis.defineCommand('intentReplace', { numberOfKeys: 10, lua: REPLACE });
    redis.defineCommand('intentOutboxTake', { numberOfKeys: 2, lua: OUTBOX_TAKE });
    redis.defineCommand('intentClaimDue', { numberOfKeys: 1, lua: CLAIM_DUE });
    redis.defineCommand('intentOpenOf', { lua: OPEN_OF });
    redis.defineCommand('intentSeenFrom', { numberOfKeys: 1, lua: SEEN_FROM });
    redis.defineCommand('intentTrimSeen', { numberOfKeys: 1, lua: TRIM_SEEN });
    redis.defineCommand('intentBindHash', { numberOfKeys: 1, lua: BIND_HASH });
    redis.defineCommand('intentUnbindHash', { numberOfKeys: 1, lua: UNBIND_HASH });
    this.scripted = redis as unknown as Scripted;
    this.prefix = redis.options.keyPrefix ?? '';
  }

  async create(intent: TransactionIntent, dueAt: number, limits: OpenLimits): Promise<Created> {
    const overflow = await this.scripted.intentCreate(
      key(intent.id),
      RedisIntentStore.DUE,
      openKey(intent.chainId, intent.user),
      recentKey(intent.user),
      originSetKey(intent),
      clientKey(intent),
      RedisIntentStore.CLAIMED,
      serializeIntent(intent),
      this.retentionMs,
      dueAt,
      intent.id,
      intent.createdAt,
      limits.perUser,
      limits.total,
      RECENT_PER_USER,
      isClaimed(intent) ? '1' : '',
      limits.totalClaimed ?? limits.total,
      limits.perClient ?? limits.total,
    );
    return overflow === null ? { created: false } : { created: true, overflow };
  }

  async get(id: string): Promise<StoredIntent | undefined> {
    const version = await this.redis.get(key(id));
    return version === null ? undefined : readIntent(version);
  }

  async replace(
    current: StoredIntent,
    next: TransactionIntent,
    dueAt: number | null,
    announce?: Announcement,
    fence?: Fence,
  ): Promise<boolean> {
    const done = await this.scripted.intentReplace(
      key(next.id),
      RedisIntentStore.DUE,
      openKey(next.chainId, next.user),
      seenKey(next.chainId),
      originSetKey(next),
      clientKey(next),
      RedisIntentStore.CLAIMED,
      OUTBOX,
      OUTBOX_DUE,
      fenceKey(fence?.chainId ?? next.chainId),
      current.version,
      serializeIntent(next),
      this.retentionMs,
      dueAt ?? '',
      next.id,
      isOpen(next) ? next.createdAt : '',
      next.blockNumber ?? '',
      isClaimed(next) ? '1' : '',
      announce?.deliveryId ?? '',
      announce ? JSON.stringify(announce.outcome) : '',
      announce?.leaseUntil ?? '',
      fence?.token ?? '',
    );
    if (done === 2) throw new FencedError(fence!);
    return done === 1;
  }

  async outboxTake(now: number, leaseUntil: number, limit: number): Promise<OutboxEntry[]> {
    const flat = await this.scripted.intentOutboxTake(OUTBOX, OUTBOX_DUE, now, leaseUntil, limit);
    const taken: OutboxEntry[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      taken.push({ deliveryId: flat[i], outcome: JSON.parse(flat[i + 1]) as TransactionOutcome });
    }
    return taken;
  }

  async outboxDone(deliveryId: string): Promise<void> {
    await this.redis.multi().hdel(OUTBOX, deliveryId).zrem(OUTBOX_DUE, deliveryId).exec();
  }

  async claimDue(now: number, leaseUntil: number, limit: number): Promise<DueIntent[]> {
    const flat = await this.scripted.intentClaimDue(RedisIntentStore.DUE, now, leaseUntil, limit);
    const due: DueIntent[] = [];
    for (let i = 0; i < flat.length; i += 2) due.push({ id: flat[i], dueAt: Number(flat[i + 1]) });
    return due;
  }

  async bindHash(chainId: number, hash: string, id: string): Promise<boolean> {
    const bound = await this.scripted.intentBindHash(
      `intent-hash:${hashKey(chainId, hash)}`,
      id,
      this.retentionMs,
    );
    return bound === 1;
  }

  async unbindHash(chainId: number, hash: string, id: string): Promise<void> {
    await this.scripted.intentUnbindHash(`intent-hash:${hashKey(chainId, hash)}`, id);
  }

  async forget(id: string): Promise<void> {
    await this.redis
      .multi()
      .zrem(RedisIntentStore.DUE, id)
      .zrem(RedisIntentStore.CLAIMED, id)
      .exec();
  }

  async recentOf(user: string, limit: number): Promise<StoredIntent[]> {
    const versions = await this.scripted.intentRecentOf(recentKey(user), this.prefix, limit);
    return versions.map(readIntent);
  }

  async openOf(chainId: number, users: readonly string[]): Promise<StoredIntent[]> {
    if (users.length === 0) return [];
    const keys = users.map((user) => openKey(chainId, user));
    const versions = await this.scripted.intentOpenOf(keys.length, ...keys, this.prefix);
    return versions.map(readIntent);
  }

  async seenFrom(chainId: number, from: bigint): Promise<StoredIntent[]> {
    const versions = await this.scripted.intentSeenFrom(
      seenKey(chainId),
      this.prefix,
      from.toString(),
    );
    return versions.map(readIntent);
  }

  async hasWork(chainIds: readonly number[]): Promise<boolean> {
    const keys = [RedisIntentStore.DUE, ...chainIds.map(seenKey)];
    return (await this.redis.exists(...keys)) > 0;
  }

  async noteSkipped(chainId: number, from: bigint, to: bigint): Promise<void> {
    const key = `follower-skips:${chainId}`;
    await this.redis
      .multi()
      .zadd(key, to.toString(), `${from}-${to}`)
      .zremrangebyrank(key, 0, -SKIPS_KEPT - 1)
      .pexpire(key, this.retentionMs)
      .exec();
  }

  async skippedSince(chainId: number, block: bigint): Promise<boolean> {
    const key = `follower-skips:${chainId}`;
    return (await this.redis.zcount(key, block.toString(), '+inf')) > 0;
  }

  async trimSeen(chainId: number, below: bigint): Promise<void> {
    await this.scripted.intentTrimSeen(seenKey(chainId), this.prefix, below.toString());
  }
}
