/**
 * Transaction outcomes (issue 20): what the service remembers of each transaction answer, and
 * what it announces once the user's transaction settles. Shared by the intent store, the
 * watcher, team hooks and webhooks, so each can be built and tested on its own.
 */

/** Where an intent is: answered → submitted → one of the settled statuses. */
export type IntentStatus = OpenStatus | SettledStatus;

/** Not settled yet: nothing seen (`answered`), or its transaction seen and not deep enough. */
export type OpenStatus = 'answered' | 'submitted';

/** The final statuses: team hooks and webhooks are told of each exactly once per intent. */
/**
 * `unchecked`: expired, but blocks of its chain since it was answered were skipped unread
 * (past OUTCOME_CATCHUP_BLOCKS, or a transaction over the RPC answer cap): its payment may have
 * gone unseen, so the service does not say that nothing came.
 */
export type SettledStatus = 'confirmed' | 'reverted' | 'replaced' | 'expired' | 'unchecked';

/** Every final status, in the order the docs list them. */
export const SETTLED_STATUSES: readonly SettledStatus[] = [
  'confirmed',
  'reverted',
  'replaced',
  'expired',
  'unchecked',
];

/**
 * How a transaction seen for an intent relates to it (intent-match.ts): the user's own
 * transaction carrying the answered call (whatever its nonce, gas and fees: the call itself, or
 * a batch the user's key signed), an ERC-4337 user operation of the user's account, the user's
 * Safe executing it, or another transaction taking the nonce of the one reported for it (a
 * wallet's cancel).
 */
export type Sighting = 'call' | 'user-operation' | 'safe' | 'replacement';

/** One transaction answer, recorded when it is given. Amounts and blocks are decimal strings. */
export interface TransactionIntent {
  /** Opaque, URL-safe, unguessable, at most 64 characters. */
  id: string;
  /** The action's path, e.g. `/api/send-token`. */
  action: string;
  chainId: number;
  /** The user address: the signed-in one, else the one the request claimed; checksummed. */
  user: `0x${string}`;
  /** How sure the service was of `user`: `siwe` (a session), `claimed` (a header or the body). */
  userLevel?: 'claimed' | 'siwe';
  /**
   * Where it was answered from, for the bounds on open intents: `siwe`, or `ip:` and 16
   * characters of a hash of the claiming client's IP (intent-store.ts, originOf).
   */
  origin?: string;
  to: `0x${string}`;
  /** The answered calldata, its tag included when `tagged`. */
  data: `0x${string}`;
  /**
   * Whether `data` ends with the answer's ERC-8021 tag naming this id: then only a transaction
   * carrying it is this intent's. Untagged (a coin sent with no calldata): matched by sender,
   * recipient, value and a nonce no lower than `nonce`.
   */
  tagged?: boolean;
  /** The head block the answer's simulation read: nothing mined at or below it is this intent's. */
  answeredBlock?: string;
  /** Wei, as a decimal string. */
  value: string;
  status: IntentStatus;
  /** The user's pending nonce when it was answered (read in the simulation's batch). */
  nonce?: number;
  /** The transaction seen for it: mined (with its block), or reported and still pending. */
  hash?: `0x${string}`;
  seenAs?: Sighting;
  /** The nonce of a reported transaction still pending: another mined at it replaces it. */
  pendingNonce?: number;
  /** The user operation's nonce, when seenAs is `user-operation`. */
  userOpNonce?: string;
  /** The block that mined it, as a decimal string, and that block's hash (to see a reorg). */
  blockNumber?: string;
  blockHash?: `0x${string}`;
  /** Epoch milliseconds of the reorg that took a settled intent's block off the chain. */
  reorgedAt?: number;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  /** The request that answered it, for joining logs. */
  requestId?: string;
  /**
   * The answer's `params.args` its action's webhook names (`webhook.fields`), as the answer
   * showed them: what that webhook's deliveries carry (at most MAX_FIELDS_BYTES of JSON).
   */
  fields?: Record<string, unknown>;
}

/**
 * What hooks and webhooks are told: a settled status, or `reorged` when the block of an intent
 * that had settled left the chain (a reorg deeper than TX_CONFIRMATIONS and the node's finality).
 * The intent keeps its status: a final status is never followed by a contradicting one.
 */
export type OutcomeEvent = SettledStatus | 'reorged';

export const OUTCOME_EVENTS: readonly OutcomeEvent[] = [...SETTLED_STATUSES, 'reorged'];

/** An intent that reached a settled status (or lost its block after): what hooks receive and webhooks carry. */
export interface TransactionOutcome {
  status: OutcomeEvent;
  /**
   * `<intent>.<event>`: the same for every delivery of this outcome (a webhook's `webhook-id`, a
   * hook run again after a crash), for receivers to deduplicate with.
   */
  deliveryId: string;
  intent: TransactionIntent;
  /** Epoch milliseconds of the transition. */
  occurredAt: number;
}

/**
 * Told of every settled outcome after the follower claimed its transition (so once per intent
 * and status across replicas). Webhooks are one; the outcomes module calls the one bound to
 * OUTCOME_SINK, when a module provides it.
 */
export interface OutcomeSink {
  deliver(outcome: TransactionOutcome): Promise<void>;
}

/** Injection token of the OutcomeSink (the webhooks module binds one). */
export const OUTCOME_SINK = Symbol('OUTCOME_SINK');

/** The delivery id of an intent's event. */
export const deliveryIdOf = (intent: string, event: OutcomeEvent): string => `${intent}.${event}`;
