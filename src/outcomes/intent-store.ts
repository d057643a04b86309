import type { TransactionIntent } from './outcome.types';

/**
 * Where intents live (Redis when REDIS_URL is set, else process memory), with the schedule the
 * watcher works through. Every change is a compare-and-set against the version read, so two
 * replicas (or a report racing the watcher) can never both move one intent: the one whose write
 * lands owns the transition, and only it runs the hooks.
 */
export interface IntentStore {
  /** Records a new intent; it is due to the watcher at `dueAt` (its expiry, until a hash comes). */
  create(intent: TransactionIntent, dueAt: number): Promise<void>;
  get(id: string): Promise<StoredIntent | undefined>;
  /**
   * Replaces `current` by `next` if nobody changed it since it was read; `dueAt` reschedules it
   * for the watcher (null: it is settled, the watcher forgets it). False when another write won.
   */
  replace(current: StoredIntent, next: TransactionIntent, dueAt: number | null): Promise<boolean>;
  /**
   * Takes up to `limit` intents due by `now` for this replica, each leased until `leaseUntil`
   * (so another replica's watcher skips them meanwhile). Atomic across replicas.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<DueIntent[]>;
  /** Drops an id from the schedule (its intent is gone: expired from the store or evicted). */
  forget(id: string): Promise<void>;
  /** Marks `key` (an intent and a status) as handled: true the first time only, across replicas. */
  claimOnce(key: string): Promise<boolean>;
}

/** An intent as read, with the version a replace compares against. */
export interface StoredIntent {
  intent: TransactionIntent;
  version: string;
}

export interface DueIntent {
  id: string;
  /** When it was due: the watcher's lag is how late it looks. */
  dueAt: number;
}

export const INTENT_STORE = Symbol('INTENT_STORE');

/** The stored form: JSON, which is also the version a compare-and-set compares. */
export const serializeIntent = (intent: TransactionIntent): string => JSON.stringify(intent);
export const readIntent = (version: string): StoredIntent => ({
  intent: JSON.parse(version) as TransactionIntent,
  version,
});
