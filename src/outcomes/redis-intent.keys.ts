import type { TransactionIntent } from './outcome.types';
import { originKey, originOf, userKey } from './intent-store';

type Args = (string | number)[];
/** The scripts as ioredis's defineCommand adds them: EVALSHA, the source again on NOSCRIPT. */
export interface Scripted {
  intentCreate(...args: Args): Promise<string[] | null>;
  intentReplace(...args: Args): Promise<number>;
  intentClaimDue(...args: Args): Promise<string[]>;
  intentOpenOf(keys: number, ...args: Args): Promise<string[]>;
  intentRecentOf(...args: Args): Promise<string[]>;
  intentSeenFrom(...args: Args): Promise<string[]>;
  intentTrimSeen(...args: Args): Promise<number>;
  intentBindHash(...args: Args): Promise<number>;
  intentUnbindHash(...args: Args): Promise<number>;
  intentOutboxTake(...args: Args): Promise<string[]>;
}

/** The keys of RedisIntentStore (the client's prefix applies). */
export const key = (id: string): string => `intent:${id}`;
export const openKey = (chainId: number, user: string): string =>
  `intents:open:${userKey(chainId, user)}`;
export const seenKey = (chainId: number): string => `intents:seen:${chainId}`;
export const recentKey = (user: string): string => `intents:user:${user.toLowerCase()}`;
export const originSetKey = (intent: TransactionIntent): string =>
  `intents:open:${originKey(intent)}`;
/** A claimed intent's client (its origin); a signed-in one's key is named but never written. */
export const clientKey = (intent: TransactionIntent): string =>
  `intents:client:${originOf(intent)}`;
/** Outcomes written with their transitions and not yet delivered, by delivery id, and their leases. */
export const OUTBOX = 'outbox';
export const OUTBOX_DUE = 'outbox:due';
