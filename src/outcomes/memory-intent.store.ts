import { LRUCache } from 'lru-cache';
import {
  type DueIntent,
  type IntentStore,
  readIntent,
  serializeIntent,
  type StoredIntent,
} from './intent-store';
import type { TransactionIntent } from './outcome.types';

/**
 * One replica's intents, without Redis: at most `max` of them (the least recently used go first,
 * taking their schedule with them), each kept `ttlMs` after its last change.
 */
export class MemoryIntentStore implements IntentStore {
  private readonly intents: LRUCache<string, string>;
  private readonly due = new Map<string, number>();
  private readonly claims: LRUCache<string, true>;

  constructor(max: number, ttlMs: number) {
    this.intents = new LRUCache({
      max,
      ttl: ttlMs,
      dispose: (_value, id, reason) => {
        if (reason !== 'set') this.due.delete(id);
      },
    });
    this.claims = new LRUCache({ max: max * 4, ttl: ttlMs });
  }

  create(intent: TransactionIntent, dueAt: number): Promise<void> {
    this.intents.set(intent.id, serializeIntent(intent));
    this.due.set(intent.id, dueAt);
    return Promise.resolve();
  }

  get(id: string): Promise<StoredIntent | undefined> {
    const version = this.intents.get(id);
    return Promise.resolve(version === undefined ? undefined : readIntent(version));
  }

  replace(current: StoredIntent, next: TransactionIntent, dueAt: number | null): Promise<boolean> {
    if (this.intents.get(next.id) !== current.version) return Promise.resolve(false);
    this.intents.set(next.id, serializeIntent(next));
    if (dueAt === null) this.due.delete(next.id);
    else this.due.set(next.id, dueAt);
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
}
