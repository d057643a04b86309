import { LRUCache } from 'lru-cache';
import type { TransactionIntent } from './outcome.types';
import {
  type Created,
  type DueIntent,
  hashKey,
  type IntentStore,
  isOpen,
  type OpenLimits,
  readIntent,
  RECENT_PER_USER,
  serializeIntent,
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
  /** Each user's most recent intent ids (lower-case address), oldest first. */
  private readonly recent = new Map<string, string[]>();
  /** Seen intents by chain: id → block. */
  private readonly seen = new Map<number, Map<string, bigint>>();
  private readonly claims: LRUCache<string, true>;
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
    this.claims = new LRUCache({ max: max * 4, ttl: ttlMs });
    this.hashes = new LRUCache({ max, ttl: ttlMs });
  }

  create(intent: TransactionIntent, dueAt: number, limits: OpenLimits): Promise<Created> {
    if (this.due.size >= limits.total) return Promise.resolve({ created: false });
    this.intents.set(intent.id, serializeIntent(intent));
    this.index(intent, dueAt);
    const user = intent.user.toLowerCase();
    const recent = this.recent.get(user) ?? [];
    recent.push(intent.id);
    if (recent.length > RECENT_PER_USER) recent.shift();
    this.recent.set(user, recent);
    // The first ids of the user's open set, without copying it (done on every answer).
    const mine = this.open.get(userKey(intent.chainId, intent.user));
    const overflow: string[] = [];
    let past = (mine?.size ?? 0) - limits.perUser;
    for (const id of mine ?? []) {
      if (past-- <= 0) break;
      overflow.push(id);
    }
    return Promise.resolve({ created: true, overflow });
  }

  get(id: string): Promise<StoredIntent | undefined> {
    const version = this.intents.get(id);
    return Promise.resolve(version === undefined ? undefined : readIntent(version));
  }

  replace(current: StoredIntent, next: TransactionIntent, dueAt: number | null): Promise<boolean> {
    if (this.intents.get(next.id) !== current.version) return Promise.resolve(false);
    this.intents.set(next.id, serializeIntent(next));
    this.index(next, dueAt);
    return Promise.resolve(true);
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

  claimOnce(key: string): Promise<boolean> {
    if (this.claims.has(key)) return Promise.resolve(false);
    this.claims.set(key, true);
    return Promise.resolve(true);
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
      const key = userKey(intent.chainId, intent.user);
      // A Set keeps the order of first insertion: a user's oldest open intent stays first.
      this.open.set(key, (this.open.get(key) ?? new Set<string>()).add(intent.id));
    }
    const seen = this.seen.get(intent.chainId) ?? new Map<string, bigint>();
    if (intent.blockNumber === undefined) seen.delete(intent.id);
    else this.seen.set(intent.chainId, seen.set(intent.id, BigInt(intent.blockNumber)));
  }

  private unindexOpen(intent: TransactionIntent): void {
    const key = userKey(intent.chainId, intent.user);
    const mine = this.open.get(key);
    if (mine?.delete(intent.id) && mine.size === 0) this.open.delete(key);
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
