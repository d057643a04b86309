import { chainTag } from '../follower/redis-follower.state';
import type { TransactionIntent } from './outcome.types';
import { hashKey, originOf } from './intent-store';

/**
 * The keys of RedisIntentStore (the client's prefix applies), each with a hash tag `{…}` that
 * names its Redis Cluster slot; one server stores the same keys. What one script touches shares
 * a tag; what spans tags is written in steps (redis-intent.store.ts says in which order, and why
 * no step can be lost):
 * - an intent's **home shard** `{intents:<n>}`, one of INTENT_SHARDS chosen by its id: the intent,
 *   its place on the expiry schedule, the claimed set and its outbox entries;
 * - its **user** `{user:<address>}`: the user's open intents per chain and origin, and recent ones;
 * - its **client** `{client:<origin>}`: a claiming client's open intents;
 * - its **chain** `{chain:<id>}`: the intents seen in blocks, with the follower's keys (the fence).
 */

/**
 * Home shards: what the schedule, the claimed set and the outbox are split in, so that no one
 * slot takes every write. Fixed (changing it would strand what the other count wrote): 32 spreads
 * them over up to 32 primaries, and a sweep or a watcher pass reads 32 small keys.
 */
export const INTENT_SHARDS = 32;

/** An id's home shard: FNV-1a of its text, modulo INTENT_SHARDS. */
export function shardOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % INTENT_SHARDS;
}

const home = (shard: number): string => `{intents:${shard}}`;
const userTag = (user: string): string => `{user:${user.toLowerCase()}}`;

/** Every home shard's number. */
export const SHARDS: readonly number[] = Array.from({ length: INTENT_SHARDS }, (_, n) => n);

export const key = (id: string): string => `intent:${home(shardOf(id))}:${id}`;
/** A shard's expiry schedule of open intents (its size: how many of them are open). */
export const dueKey = (shard: number): string => `intents:due:${home(shard)}`;
/** A shard's claimed open intents: what INTENT_MAX_OPEN_CLAIMED bounds. */
export const claimedKey = (shard: number): string => `intents:claimed:${home(shard)}`;
/** A shard's outcomes written with their transitions and not yet delivered, and their leases. */
export const outboxKey = (shard: number): string => `outbox:${home(shard)}`;
export const outboxDueKey = (shard: number): string => `outbox:due:${home(shard)}`;

/** A user's open intents on a chain, by age. */
export const openKey = (chainId: number, user: string): string =>
  `intents:open:${userTag(user)}:${chainId}`;
/** A user's open intents on a chain from one origin: what INTENT_MAX_OPEN_PER_USER bounds. */
export const originSetKey = (intent: TransactionIntent): string =>
  `${openKey(intent.chainId, intent.user)}:${originOf(intent)}`;
/** A user's RECENT_PER_USER newest intents answered while signed in, on every chain. */
export const recentKey = (user: string): string => `intents:user:${userTag(user)}`;
/** A claimed intent's client (its origin); a signed-in one's key is named but never written. */
export const clientKey = (intent: TransactionIntent): string =>
  `intents:client:{client:${originOf(intent)}}`;
/** The intents seen in a block of a chain, by block, beside the follower's keys of that chain. */
export const seenKey = (chainId: number): string => `intents:seen:${chainTag(chainId)}`;
/** The block ranges the follower skipped unread. */
export const skipsKey = (chainId: number): string => `follower-skips:${chainTag(chainId)}`;
/** The intent an untagged transaction settles: one key, any slot. */
export const hashBindingKey = (chainId: number, hash: string): string =>
  `intent-hash:${hashKey(chainId, hash)}`;
/** The intent a delivery id (`<intent>.<event>`) belongs to. */
export const intentOfDelivery = (deliveryId: string): string =>
  deliveryId.slice(0, deliveryId.lastIndexOf('.'));
