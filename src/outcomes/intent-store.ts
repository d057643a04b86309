import type { Fence } from '../follower/follower-state';
import type { TransactionIntent, TransactionOutcome } from './outcome.types';

/**
 * The bounds on open intents a new one is recorded within. `perUser` counts one user's open
 * intents on a chain answered from one origin (signed in, or one client's address: originOf);
 * `perClient` one client's open claimed intents, whatever their users; `totalClaimed` the claimed
 * ones in all, so that claims never fill `total` for signed-in users.
 */
export interface OpenLimits {
  perUser: number;
  total: number;
  perClient?: number;
  totalClaimed?: number;
}

/**
 * What recording an intent did: refused when `total` intents (or, for a claimed one,
 * `totalClaimed`) are open, else which to expire.
 */
export type Created =
  | { created: false }
  /**
   * `overflow`: the oldest open intents past `perUser` of the same user and origin, and past
   * `perClient` of the same client, for the caller to expire.
   */
  | { created: true; overflow: string[] };

/**
 * Where intents live (Redis when REDIS_URL is set, else process memory), with four indexes kept
 * in step by every write: the expiry schedule of open intents, the open intents of each user on
 * each chain (what a block's senders are matched against), the intents seen in each block
 * (for the confirmation depth and for reorgs), and each user's recent intents (for their listing). Every change is a compare-and-set against the
 * version read, so two replicas (or a report racing the follower) can never both move one intent.
 */
export interface IntentStore {
  create(intent: TransactionIntent, dueAt: number, limits: OpenLimits): Promise<Created>;
  get(id: string): Promise<StoredIntent | undefined>;
  /**
   * Replaces `current` by `next` if nobody changed it since it was read; `dueAt` reschedules its
   * expiry (null: it is settled and leaves the schedule). False when another write won. With
   * `announce`, the outcome to deliver is written to the outbox in the same atomic step, leased to
   * the writer until `announce.leaseUntil`. With `fence` (the chain follower's lease), refused
   * with a FencedError when that lease was taken over, in the same atomic step.
   */
  replace(
    current: StoredIntent,
    next: TransactionIntent,
    dueAt: number | null,
    announce?: Announcement,
    fence?: Fence,
  ): Promise<boolean>;
  /** Takes up to `limit` intents due by `now`, each leased until `leaseUntil`. Atomic. */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<DueIntent[]>;
  /** Drops an id from the schedule (its intent is gone). */
  forget(id: string): Promise<void>;
  /**
   * Takes up to `limit` outbox entries whose lease ended by `now` (their writer died, or failed to
   * deliver), each leased again until `leaseUntil`. Atomic: one replica takes each.
   */
  outboxTake(now: number, leaseUntil: number, limit: number): Promise<OutboxEntry[]>;
  /** Removes a delivered entry (its webhook job exists and its hooks ran). */
  outboxDone(deliveryId: string): Promise<void>;
  /**
   * Binds a transaction to the one intent it settles (an untagged intent's: a tagged one's tag is
   * its own). True when the hash was free or is already this intent's, false when another holds
   * it; atomic across replicas, kept as long as an intent.
   */
  bindHash(chainId: number, hash: string, id: string): Promise<boolean>;
  /** Frees a hash bound to this intent (its block left the chain, or its move lost a race). */
  unbindHash(chainId: number, hash: string, id: string): Promise<void>;
  /**
   * A user's most recent intents on every chain, open or settled, newest first: at most `limit`,
   * of the RECENT_PER_USER the index keeps (what a verified user's listing reads).
   */
  recentOf(user: string, limit: number): Promise<StoredIntent[]>;
  /** The open intents of these users on a chain, in one lookup (users lower-case). */
  openOf(chainId: number, users: readonly string[]): Promise<StoredIntent[]>;
  /** The intents seen in a block at or above `from` on a chain, settled or not. */
  seenFrom(chainId: number, from: bigint): Promise<StoredIntent[]>;
  /** Whether any intent is open, or seen on one of these chains within reach of a reorg. */
  hasWork(chainIds: readonly number[]): Promise<boolean>;
  /** Forgets the settled intents seen below block `below` (no reorg reaches them any more). */
  trimSeen(chainId: number, below: bigint): Promise<void>;
  /** Notes blocks `from`..`to` of a chain that the follower skipped unread (the last SKIPS_KEPT). */
  noteSkipped(chainId: number, from: bigint, to: bigint): Promise<void>;
  /** Whether a noted skipped range of the chain reaches block `block` or later. */
  skippedSince(chainId: number, block: bigint): Promise<boolean>;
}

/** An outcome waiting in the outbox, under its delivery id (`<intent>.<event>`). */
export interface OutboxEntry {
  deliveryId: string;
  outcome: TransactionOutcome;
}

/** What a transition writes to the outbox with it. */
export interface Announcement extends OutboxEntry {
  leaseUntil: number;
}

/** An intent as read, with the version a replace compares against. */
export interface StoredIntent {
  intent: TransactionIntent;
  version: string;
}

export interface DueIntent {
  id: string;
  dueAt: number;
}

export const INTENT_STORE = Symbol('INTENT_STORE');

/** The stored form: JSON, which is also the version a compare-and-set compares. */
export const serializeIntent = (intent: TransactionIntent): string => JSON.stringify(intent);
export const readIntent = (version: string): StoredIntent => ({
  intent: JSON.parse(version) as TransactionIntent,
  version,
});

export const isOpen = (intent: TransactionIntent): boolean =>
  intent.status === 'answered' || intent.status === 'submitted';

/** Skipped ranges kept per chain: an intent lives a day, a skip is rare. */
export const SKIPS_KEPT = 100;

/** Intents the per-user index of recent ones keeps for each user; older ones leave it. */
export const RECENT_PER_USER = 100;

/**
 * Where an intent was answered from, for the bounds (issue 42): `siwe` for a signed-in user,
 * else the client that claimed the address (`ip:` and a hash of its IP, as the recorder writes it).
 * Intents recorded before origins were: `legacy`.
 */
export const originOf = (intent: TransactionIntent): string =>
  intent.origin ?? (intent.userLevel === 'siwe' ? 'siwe' : 'legacy');

/** Whether the intent's user was only claimed (a header or the body), not signed in. */
export const isClaimed = (intent: TransactionIntent): boolean => originOf(intent) !== 'siwe';

/** A user's open intents on a chain from one origin: what `perUser` bounds. */
export const originKey = (intent: TransactionIntent): string =>
  `${userKey(intent.chainId, intent.user)}:${originOf(intent)}`;

/** The user index's member key: a chain and a lower-case address. */
export const userKey = (chainId: number, user: string): string =>
  `${chainId}:${user.toLowerCase()}`;

/** A bound hash's key: a chain and a lower-case hash. */
export const hashKey = (chainId: number, hash: string): string =>
  `${chainId}:${hash.toLowerCase()}`;
