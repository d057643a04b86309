import type { Address, Hash, Hex } from 'viem';
import { holdsCall } from '../evm';
import type { Sighting, TransactionIntent } from './outcome.types';
import { isEntryPoint, isSafeCall, userOperationOf } from './wallet-evidence';

/** What a transaction must show to be an intent's: read from a block, or looked up by hash. */
export interface SeenTransaction {
  chainId?: number;
  hash: Hash;
  from: Address;
  to: Address | null;
  input: Hex;
  value: bigint;
  nonce: number;
  /** Null or absent while pending. */
  blockNumber?: bigint | null;
}

/** How a transaction carries an intent's call: its kind, and a user operation's nonce. */
export interface Seen {
  sighting: Exclude<Sighting, 'replacement'>;
  userOpNonce?: bigint;
}

const same = (a: string | null | undefined, b: string): boolean =>
  typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * How a transaction carries an intent's answered call, if it does (issue 42). A tagged intent's
 * call ends with its own ERC-8021 tag, so a transaction is its only when it holds those exact
 * bytes AND the user ran it: the user's key sent it (the call itself, or a 7702 account's batch),
 * or the user's smart account ran it (wallet-evidence.ts). Nothing mined before the answer holds
 * its tag. An untagged intent (a coin sent without calldata) needs the user's transaction with the
 * same recipient and value, at a nonce no lower than the user's pending one at the answer and in a
 * block above the one its simulation read; the follower and reports also bind its hash to one
 * intent only (IntentStore.bindHash).
 */
export function sightingOf(intent: TransactionIntent, tx: SeenTransaction): Seen | undefined {
  if (tx.chainId !== undefined && tx.chainId !== intent.chainId) return undefined;
  return intent.tagged ? taggedSighting(intent, tx) : plainSighting(intent, tx);
}

function taggedSighting(intent: TransactionIntent, tx: SeenTransaction): Seen | undefined {
  if (!holdsCall(tx.input, intent.data)) return undefined;
  if (same(tx.from, intent.user)) return { sighting: 'call' };
  if (tx.to !== null && isEntryPoint(tx.to)) {
    const nonce = userOperationOf(tx.to, tx.input, intent.user, intent.data);
    return nonce === undefined ? undefined : { sighting: 'user-operation', userOpNonce: nonce };
  }
  if (same(tx.to, intent.user) && isSafeCall(tx.input, intent.data)) return { sighting: 'safe' };
  return undefined;
}

function plainSighting(intent: TransactionIntent, tx: SeenTransaction): Seen | undefined {
  if (!same(tx.from, intent.user) || !same(tx.to, intent.to)) return undefined;
  if (!same(tx.input, intent.data) || tx.value !== BigInt(intent.value)) return undefined;
  return predates(intent, tx) ? undefined : { sighting: 'call' };
}

/**
 * Whether the transaction was sent before the answer: at a nonce below the user's pending one
 * then, or mined at or below the head its simulation read. Only an untagged intent needs asking.
 */
export function predates(intent: TransactionIntent, tx: SeenTransaction): boolean {
  if (intent.nonce !== undefined && tx.nonce < intent.nonce) return true;
  return (
    intent.answeredBlock !== undefined &&
    tx.blockNumber !== undefined &&
    tx.blockNumber !== null &&
    tx.blockNumber <= BigInt(intent.answeredBlock)
  );
}

/**
 * Whether a transaction provably takes the place of the one reported for an intent: another
 * transaction of the user's, at the nonce of the reported one still pending (a wallet's cancel,
 * or anything else the user sent at that nonce: the reported transaction can never be mined). A
 * transaction at the nonce read when answering proves nothing: the wallet chooses the nonce it
 * signs at, and may sign the answer later at another.
 */
export function replaces(intent: TransactionIntent, tx: SeenTransaction): boolean {
  return (
    intent.pendingNonce !== undefined &&
    intent.hash !== undefined &&
    intent.blockNumber === undefined &&
    same(tx.from, intent.user) &&
    tx.nonce === intent.pendingNonce &&
    !same(tx.hash, intent.hash) &&
    sightingOf(intent, tx) === undefined
  );
}
