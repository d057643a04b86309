import { LRUCache } from 'lru-cache';
import { add, oldest, remove } from './id-sets';
import type { TransactionIntent } from './outcome.types';
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
  originKey,
  originOf,
  readIntent,
  RECENT_PER_USER,
  serializeIntent,
  SKIPS_KEPT,
  type StoredIntent,
  userKey,
} from './intent-store';

/**
 * One replica's intents, without Redis: at most `max` of them (the least recently used go first,
 * taking their indexes with them), each kept `ttlMs` after its last change.
 */
export class MemoryIntentStore implements IntentStore {
  private readonly intents: LRUCache<string, string>;
  private readonly due = new Map<string, number>();
  /** Open intent ids by chain and user, oldest first (a Set keeps insertion order). */
  private readonly open = new Map<string, Set<string>>();
  /**
   * The same by chain, user and origin (originKey), and by claiming client (originOf), and every
   * claimed open id: the bounds of OpenLimits.
   */
  private readonly byOrigin = new Map<string, Set<string>>();
  private readonly byClient = new Map<string, Set<string>>();
  private readonly claimed = new Set<string>();
  /** Each user's most recent intent ids (lower-case address), oldest first. */
  private readonly recent = new Map<string, string[]>();
  /** Seen intents by chain: id → block. */
  private readonly seen = new Map<number, Map<string, bigint>>();
  /** Outcomes to deliver, by delivery id: a process's outbox dies with it, as its intents do. */
  private readonly outbox = new Map<string, { entry: OutboxEntry; leaseUntil: number }>();
  /** Ranges the follower skipped unread, by chain (the last SKIPS_KEPT). */
  private readonly skips = new Map<number, { from: bigint; to: bigint }[]>();
  /** Bound hashes (hashKey) → the intent each settles. */
  private readonly hashes: LRUCache<string, string>;

  constructor(max: number, ttlMs: number) {
    this.intents = new LRUCache({
      max,
      ttl: ttlMs,
      dispose: (version, id, reason) => {
        if (reason !== 'set') this.unindex(readIntent(version).intent, id);
      },
    });
    this.hashes = new LRUCache({ max, ttl: ttlMs });
  }

  create(intent: TransactionIntent, dueAt: number, limits: OpenLimits): Promise<Created> {
    const claimed = isClaimed(intent);
    if (this.due.size >= limits.total) return Promise.resolve({ created: false });
    if (claimed && this.claimed.size >= (limits.totalClaimed ?? limits.total)) {
      return Promise.resolve({ created: false });
    }
    this.intents.set(intent.id, serializeIntent(intent));
    this.index(intent, dueAt);
    if (!claimed) {
      const user = intent.user.toLowerCase();
      const recent = this.recent.get(user) ?? [];
      recent.push(intent.id);
      if (recent.length > RECENT_PER_USER) recent.shift();
      this.recent.set(user, recent);
    }
    const overflow = oldest(this.byOrigin.get(originKey(intent)), limits.perUser);
    if (claimed) {
      for (const id of oldest(
        this.byClient.get(originOf(intent)),
        limits.perClient ?? limits.total,
      )) {
        if (!overflow.includes(id)) overflow.push(id);
      }
    }
    return Promise.resolve({ created: true, overflow });
  }

  get(id: string): Promise<StoredIntent | undefined> {
    const version = this.intents.get(id);
    return Promise.resolve(version === undefined ? undefined : readIntent(version));
  }

  replace(
    current: StoredIntent,
    next: TransactionIntent,
    dueAt: number | null,
    announce?: Announcement,
  ): Promise<boolean> {
    if (this.intents.get(next.id) !== current.version) return Promise.resolve(false);
    // One synchronous step: the transition and its outbox entry, or neither.
    this.intents.set(next.id, serializeIntent(next));
    this.index(next, dueAt);
    if (announce) {
      const { deliveryId, outcome, leaseUntil } = announce;
      this.outbox.set(deliveryId, { entry: { deliveryId, outcome }, leaseUntil });
    }
    return Promise.resolve(true);
  }

  outboxTake(now: number, leaseUntil: number, limit: number): Promise<OutboxEntry[]> {
    const taken: OutboxEntry[] = [];
    for (const waiting of this.outbox.values()) {
      if (taken.length >= limit) break;
      if (waiting.leaseUntil > now) continue;
      waiting.leaseUntil = leaseUntil;
      taken.push(waiting.entry);
    }
    return Promise.resolve(taken);
  }

  outboxDone(deliveryId: string): Promise<void> {
    this.outbox.delete(deliveryId);
    return Promise.resolve();
  }

  claimDue(now: number, leaseUntil: number, limit: number): Promise<DueIntent[]> {
    const taken: DueIntent[] = [];
    for (const [id, dueAt] of this.due) {
      if (taken.length >= limit) break;
      if (dueAt > now) continue;
      taken.push({ id, dueAt });
      this.due.set(id, leaseUntil);
    }
    return Promise.resolve(taken);
  }

  forget(id: string): Promise<void> {
    this.due.delete(id);
    return Promise.resolve();
  }

  bindHash(chainId: number, hash: string, id: string): Promise<boolean> {
    const key = hashKey(chainId, hash);
    const holder = this.hashes.get(key);
    if (holder === undefined) this.hashes.set(key, id);
    return Promise.resolve(holder === undefined || holder === id);
  }

  unbindHash(chainId: number, hash: string, id: string): Promise<void> {
    const key = hashKey(chainId, hash);
    if (this.hashes.get(key) === id) this.hashes.delete(key);
    return Promise.resolve();
  }

  recentOf(user: string, limit: number): Promise<StoredIntent[]> {
    const ids = [...(this.recent.get(user.toLowerCase()) ?? [])].reverse();
    return this.read(ids.slice(0, limit));
  }

  openOf(chainId: number, users: readonly string[]): Promise<StoredIntent[]> {
    const ids = users.flatMap((user) => [...(this.open.get(userKey(chainId, user)) ?? [])]);
    return this.read(ids);
  }

  seenFrom(chainId: number, from: bigint): Promise<StoredIntent[]> {
    const seen = [...(this.seen.get(chainId) ?? [])].filter(([, block]) => block >= from);
    return this.read(seen.map(([id]) => id));
  }

  hasWork(chainIds: readonly number[]): Promise<boolean> {
    const seen = chainIds.some((id) => (this.seen.get(id)?.size ?? 0) > 0);
    return Promise.resolve(this.due.size > 0 || seen);
  }

  trimSeen(chainId: number, below: bigint): Promise<void> {
    const seen = this.seen.get(chainId);
    for (const [id, block] of seen ?? []) {
      const version = this.intents.peek(id);
      if (block < below && (!version || !isOpen(readIntent(version).intent))) seen!.delete(id);
    }
    return Promise.resolve();
  }

  noteSkipped(chainId: number, from: bigint, to: bigint): Promise<void> {
    const skips = this.skips.get(chainId) ?? [];
    skips.push({ from, to });
    this.skips.set(chainId, skips.slice(-SKIPS_KEPT));
    return Promise.resolve();
  }

  skippedSince(chainId: number, block: bigint): Promise<boolean> {
    return Promise.resolve((this.skips.get(chainId) ?? []).some(({ to }) => to >= block));
  }

  private read(ids: string[]): Promise<StoredIntent[]> {
    const versions = ids.map((id) => this.intents.peek(id)).filter((v) => v !== undefined);
    return Promise.resolve(versions.map(readIntent));
  }

  /** Puts an intent in the indexes its state calls for, and out of the others. */
  private index(intent: TransactionIntent, dueAt: number | null): void {
    if (dueAt === null) this.due.delete(intent.id);
    else this.due.set(intent.id, dueAt);
    if (!isOpen(intent)) this.unindexOpen(intent);
    else {
      // A Set keeps the order of first insertion: a user's oldest open intent stays first.
      add(this.open, userKey(intent.chainId, intent.user), intent.id);
      add(this.byOrigin, originKey(intent), intent.id);
      if (isClaimed(intent)) {
        add(this.byClient, originOf(intent), intent.id);
        this.claimed.add(intent.id);
      }
    }
    const seen = this.seen.get(intent.chainId) ?? new Map<string, bigint>();
    if (intent.blockNumber === undefined) seen.delete(intent.id);
    else this.seen.set(intent.chainId, seen.set(intent.id, BigInt(intent.blockNumber)));
  }

  private unindexOpen(intent: TransactionIntent): void {
    remove(this.open, userKey(intent.chainId, intent.user), intent.id);
    remove(this.byOrigin, originKey(intent), intent.id);
    remove(this.byClient, originOf(intent), intent.id);
    this.claimed.delete(intent.id);
  }

  private unindex(intent: TransactionIntent, id: string): void {
    this.due.delete(id);
    const user = intent.user.toLowerCase();
    const recent = this.recent.get(user);
    const at = recent?.indexOf(id) ?? -1;
    if (at >= 0) recent!.splice(at, 1);
    if (recent?.length === 0) this.recent.delete(user);
    this.unindexOpen(intent);
    this.seen.get(intent.chainId)?.delete(id);
  }
}
