/**
 * Transaction outcomes (issue 20): what the service remembers of each transaction answer, and
 * what it announces once the user's transaction settles. Shared by the intent store, the
 * watcher, team hooks and webhooks, so each can be built and tested on its own.
 */

/** Where an intent is: answered → submitted → one of the settled statuses. */
export type IntentStatus = 'answered' | 'submitted' | SettledStatus;

/** The final statuses: team hooks and webhooks are told of each exactly once per intent. */
export type SettledStatus = 'confirmed' | 'reverted' | 'mismatch' | 'expired';

export const SETTLED_STATUSES: readonly SettledStatus[] = [
  'confirmed',
  'reverted',
  'mismatch',
  'expired',
];

/** One transaction answer, recorded when it is given. Amounts and blocks are decimal strings. */
export interface TransactionIntent {
  /** Opaque, URL-safe, unguessable, at most 64 characters. */
  id: string;
  /** The action's path, e.g. `/api/send-token`. */
  action: string;
  chainId: number;
  /** The user address the request claimed (`x-user-address`), checksummed. */
  user: `0x${string}`;
  to: `0x${string}`;
  data: `0x${string}`;
  /** Wei, as a decimal string. */
  value: string;
  status: IntentStatus;
  /** The wallet's transaction hash, once reported. */
  hash?: `0x${string}`;
  /** The block that mined it, as a decimal string. */
  blockNumber?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  /** The request that answered it, for joining logs. */
  requestId?: string;
}

/** An intent that reached a settled status: what hooks receive and webhooks carry. */
export interface TransactionOutcome {
  status: SettledStatus;
  intent: TransactionIntent;
  /** Epoch milliseconds of the transition. */
  occurredAt: number;
}

/**
 * Told of every settled outcome after the watcher claimed its transition (so once per intent
 * and status across replicas). Webhooks are one; the outcomes module calls the one bound to
 * OUTCOME_SINK, when a module provides it.
 */
export interface OutcomeSink {
  deliver(outcome: TransactionOutcome): Promise<void>;
}

export const OUTCOME_SINK = Symbol('OUTCOME_SINK');
