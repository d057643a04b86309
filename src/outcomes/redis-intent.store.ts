import { Logger } from '@nestjs/common';
import { type Fence, FencedError } from '../follower/follower-state';
import { fenceKey } from '../follower/redis-follower.state';
import { limitLog } from '../telemetry/logging/log-limiter';
import { logText } from '../telemetry/logging/log-text';
import type { RedisClient } from '../telemetry/redis/redis.provider';
import { anyExists, countsUpTo } from '../telemetry/redis/redis-keys';
import type { TransactionIntent, TransactionOutcome } from './outcome.types';
import {
  type Announcement,
  type Created,
  type DueIntent,
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
  claimedKey,
  clientKey,
  dueKey,
  hashBindingKey,
  intentOfDelivery,
  key,
  openKey,
  originSetKey,
  outboxDueKey,
  outboxKey,
  recentKey,
  seenKey,
  SHARDS,
  shardOf,
  skipsKey,
} from './redis-intent.keys';
import { INDEX_GRACE_MS, IntentReads } from './redis-intent.reads';
import { type Scripted, SCRIPTS } from './redis-intent.scripts';
import { OpenCounts } from './redis-open-counts';

/**
 * Intents shared by every replica, on the service's Redis client (one server or a Redis Cluster;
 * the key layout and its hash tags: redis-intent.keys.ts). An intent's home shard holds it with
 * its schedule, claimed and outbox entries: a transition and its outcome are one atomic step
 * there. Its user's, client's and chain's indexes live in other slots, written in steps that
 * never leave an index short: an index gains an intent BEFORE the intent's own write and loses it
 * AFTER. A crash (or a node failing over) between the steps leaves an index naming too much,
 * never too little, and every read checks the intent itself (IntentReads). Nothing written is
 * lost; what an index names wrongly is dropped by the next read of it, or expires with it.
 */
export class RedisIntentStore implements IntentStore {
  private readonly logger = new Logger('Intents');
  private readonly scripted: Scripted;
  private readonly reads: IntentReads;
  private readonly counts: OpenCounts;

  constructor(
    private readonly redis: RedisClient,
    private readonly retentionMs: number,
  ) {
    for (const [name, script] of Object.entries(SCRIPTS)) redis.defineCommand(name, script);
    this.scripted = redis as unknown as Scripted;
    this.reads = new IntentReads(redis, this.scripted);
    this.counts = new OpenCounts(redis);
  }

  /**
   * The bounds (OpenCounts), then the user's and client's indexes (their overflow), then the
   * intent in its home shard. A failure before the last step records nothing the reads keep.
   */
  async create(intent: TransactionIntent, dueAt: number, limits: OpenLimits): Promise<Created> {
    const began = Date.now();
    const claimed = isClaimed(intent);
    const counts = await this.counts.current();
    if (counts.open >= limits.total) return { created: false };
    if (claimed && counts.claimed >= (limits.totalClaimed ?? limits.total))
      return { created: false };
    const { id, createdAt } = intent;
    const [byUser, byClient] = await Promise.all([
      this.scripted.intentUserCreate(
        openKey(intent.chainId, intent.user),
        originSetKey(intent),
        recentKey(intent.user),
        createdAt,
        id,
        this.retentionMs,
        limits.perUser,
        RECENT_PER_USER,
        claimed ? '1' : '',
      ) as Promise<string[]>,
      claimed
        ? (this.scripted.intentIndexAdd1(
            clientKey(intent),
            createdAt,
            id,
            this.retentionMs,
            limits.perClient ?? limits.total,
          ) as Promise<string[]>)
        : Promise.resolve([]),
    ]);
    // Past the grace a read could have dropped the indexes' entries as never written.
    if (Date.now() - began > INDEX_GRACE_MS / 2) throw new Error('Recording an intent stalled');
    const shard = shardOf(id);
    const [due, inClaimed] = (await this.scripted.intentHomeCreate(
      key(id),
      dueKey(shard),
      claimedKey(shard),
      serializeIntent(intent),
      this.retentionMs,
      dueAt,
      id,
      createdAt,
      claimed ? '1' : '',
    )) as number[];
    this.counts.note(due, inClaimed);
    return { created: true, overflow: [...new Set([...byUser, ...byClient])] };
  }

  async get(id: string): Promise<StoredIntent | undefined> {
    const version = await this.redis.get(key(id));
    return version === null ? undefined : readIntent(version);
  }

  /**
   * Three steps. 1: what `next` joins (its seen block, its open sets), with the follower's fence
   * checked in the chain's slot. 2: the compare-and-set in the home shard, with the schedule, the
   * claimed set and the outbox entry, atomically. 3: what it leaves. The fence is checked one
   * round trip before the compare-and-set rather than in it (another slot): a follower whose
   * lease is taken over in that instant can still land one write, on an intent the new holder
   * has not moved (had it, the version would differ and the write lose), from a block it read
   * while it held the lease.
   */
  async replace(
    current: StoredIntent,
    next: TransactionIntent,
    dueAt: number | null,
    announce?: Announcement,
    fence?: Fence,
  ): Promise<boolean> {
    const { id } = next;
    const open = isOpen(next);
    const claimed = isClaimed(next);
    const block = next.blockNumber ?? '';
    const joins: Promise<unknown>[] = [];
    if (fence || block !== '') {
      const chainId = fence?.chainId ?? next.chainId;
      joins.push(
        this.scripted.intentChainSeen(
          fenceKey(chainId),
          seenKey(next.chainId),
          fence?.token ?? '',
          block,
          id,
        ),
      );
    }
    if (open) {
      const sets = [openKey(next.chainId, next.user), originSetKey(next)];
      joins.push(this.scripted.intentIndexAdd2(...sets, next.createdAt, id, this.retentionMs));
      if (claimed)
        joins.push(
          this.scripted.intentIndexAdd1(clientKey(next), next.createdAt, id, this.retentionMs),
        );
    }
    const [seen] = await Promise.all(joins);
    if (fence && seen === 2) throw new FencedError(fence);
    const shard = shardOf(id);
    const [done, due, inClaimed] = (await this.scripted.intentHomeReplace(
      key(id),
      dueKey(shard),
      claimedKey(shard),
      outboxKey(shard),
      outboxDueKey(shard),
      current.version,
      serializeIntent(next),
      this.retentionMs,
      dueAt ?? '',
      id,
      open ? next.createdAt : '',
      claimed ? '1' : '',
      announce?.deliveryId ?? '',
      announce ? JSON.stringify(announce.outcome) : '',
      announce?.leaseUntil ?? '',
    )) as number[];
    if (done !== 1) return false;
    this.counts.note(due, inClaimed);
    await this.leave(next, open, claimed, block === '');
    return true;
  }

  /** Step 3 of replace: a failure leaves an index naming too much, which reads correct. */
  private async leave(
    next: TransactionIntent,
    open: boolean,
    claimed: boolean,
    unseen: boolean,
  ): Promise<void> {
    const leaves: Promise<unknown>[] = [];
    if (!open) {
      leaves.push(
        this.scripted.intentIndexRemove2(
          openKey(next.chainId, next.user),
          originSetKey(next),
          next.id,
        ),
      );
      if (claimed) leaves.push(this.scripted.intentIndexRemove1(clientKey(next), next.id));
    }
    if (unseen) leaves.push(this.scripted.intentIndexRemove1(seenKey(next.chainId), next.id));
    await Promise.all(leaves).catch((error: unknown) => {
      limitLog(this.logger).warn(
        'leave',
        `An index keeps intent ${next.id} until read: ${logText(String(error))}`,
      );
    });
  }

  async outboxTake(now: number, leaseUntil: number, limit: number): Promise<OutboxEntry[]> {
    const taken: OutboxEntry[] = [];
    for (const shard of await this.shardsWithDue(outboxDueKey, now)) {
      if (taken.length >= limit) break;
      const flat = (await this.scripted.intentOutboxTake(
        outboxKey(shard),
        outboxDueKey(shard),
        now,
        leaseUntil,
        limit - taken.length,
      )) as string[];
      for (let i = 0; i < flat.length; i += 2) {
        taken.push({ deliveryId: flat[i], outcome: JSON.parse(flat[i + 1]) as TransactionOutcome });
      }
    }
    return taken;
  }

  async outboxDone(deliveryId: string): Promise<void> {
    const shard = shardOf(intentOfDelivery(deliveryId));
    await this.scripted.intentOutboxDone(outboxKey(shard), outboxDueKey(shard), deliveryId);
  }

  async claimDue(now: number, leaseUntil: number, limit: number): Promise<DueIntent[]> {
    const due: DueIntent[] = [];
    for (const shard of await this.shardsWithDue(dueKey, now)) {
      if (due.length >= limit) break;
      const flat = (await this.scripted.intentClaimDue(
        dueKey(shard),
        now,
        leaseUntil,
        limit - due.length,
      )) as string[];
      for (let i = 0; i < flat.length; i += 2)
        due.push({ id: flat[i], dueAt: Number(flat[i + 1]) });
    }
    return due;
  }

  /** The shards with something due by `now`, from a count of each (one pipelined read). */
  private async shardsWithDue(keyOf: (shard: number) => string, now: number): Promise<number[]> {
    const counts = await countsUpTo(this.redis, SHARDS.map(keyOf), now);
    return SHARDS.filter((shard) => counts[shard] > 0);
  }

  async bindHash(chainId: number, hash: string, id: string): Promise<boolean> {
    return (
      (await this.scripted.intentBindHash(hashBindingKey(chainId, hash), id, this.retentionMs)) ===
      1
    );
  }

  async unbindHash(chainId: number, hash: string, id: string): Promise<void> {
    await this.scripted.intentUnbindHash(hashBindingKey(chainId, hash), id);
  }

  async forget(id: string): Promise<void> {
    const shard = shardOf(id);
    const [due, claimed] = (await this.scripted.intentHomeForget(
      dueKey(shard),
      claimedKey(shard),
      id,
    )) as number[];
    this.counts.note(-due, -claimed);
  }

  async recentOf(user: string, limit: number): Promise<StoredIntent[]> {
    const index = recentKey(user);
    const members = await this.redis.zrevrange(index, 0, limit - 1, 'WITHSCORES');
    return this.reads.named(index, members, () => true);
  }

  async openOf(chainId: number, users: readonly string[]): Promise<StoredIntent[]> {
    const found = await Promise.all(
      users.map(async (user) => {
        const index = openKey(chainId, user);
        const members = await this.redis.zrange(index, 0, -1, 'WITHSCORES');
        return this.reads.named(
          index,
          members,
          IntentReads.openOn(chainId, user),
          (i) => !isOpen(i),
        );
      }),
    );
    return found.flat();
  }

  async seenFrom(chainId: number, from: bigint): Promise<StoredIntent[]> {
    const index = seenKey(chainId);
    const members = await this.redis.zrangebyscore(index, from.toString(), '+inf', 'WITHSCORES');
    return this.reads.named(
      index,
      members,
      (i) => i.blockNumber !== undefined && BigInt(i.blockNumber) >= from,
    );
  }

  async hasWork(chainIds: readonly number[]): Promise<boolean> {
    return anyExists(this.redis, [...SHARDS.map(dueKey), ...chainIds.map(seenKey)]);
  }

  async noteSkipped(chainId: number, from: bigint, to: bigint): Promise<void> {
    const skips = skipsKey(chainId);
    await this.redis
      .multi()
      .zadd(skips, to.toString(), `${from}-${to}`)
      .zremrangebyrank(skips, 0, -SKIPS_KEPT - 1)
      .pexpire(skips, this.retentionMs)
      .exec();
  }

  async skippedSince(chainId: number, block: bigint): Promise<boolean> {
    return (await this.redis.zcount(skipsKey(chainId), block.toString(), '+inf')) > 0;
  }

  /** Forgets the ids seen below `below` whose intent is gone or settled (or no longer seen). */
  async trimSeen(chainId: number, below: bigint): Promise<void> {
    const index = seenKey(chainId);
    const members = await this.redis.zrangebyscore(index, '-inf', `(${below}`, 'WITHSCORES');
    const ids = members.filter((_, i) => i % 2 === 0);
    if (ids.length === 0) return;
    const kept = await this.reads.named(
      index,
      members,
      (i) => isOpen(i) && i.blockNumber !== undefined,
    );
    const keep = new Set(kept.map((s) => s.intent.id));
    const drop = ids.filter((id) => !keep.has(id));
    if (drop.length > 0) await this.scripted.intentTrimSeen(index, below.toString(), ...drop);
  }
}
