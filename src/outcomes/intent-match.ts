import type { Address, Hex } from 'viem';
import type { Sighting, TransactionIntent } from './outcome.types';

/** What a transaction must show to be an intent's: read from a block, or looked up by hash. */
export interface SeenTransaction {
  chainId?: number;
  from: Address;
  to: Address | null;
  input: Hex;
  value: bigint;
  nonce: number;
}

const same = (a: string | null | undefined, b: string): boolean =>
  typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * How a transaction relates to an intent, if at all. It must be the intent's user's, on its
 * chain. The same `to`, `data` and `value` make it the answered call (nonce, gas and fees are the
 * wallet's: a sped-up copy is the call too); another call at the nonce the answer was given at
 * is a replacement (a wallet's cancel). Anything else is not the intent's.
 */
export function sightingOf(intent: TransactionIntent, tx: SeenTransaction): Sighting | undefined {
  if (tx.chainId !== undefined && tx.chainId !== intent.chainId) return undefined;
  if (!same(tx.from, intent.user)) return undefined;
  if (same(tx.to, intent.to) && same(tx.input, intent.data) && tx.value === BigInt(intent.value)) {
    return 'call';
  }
  return intent.nonce !== undefined && tx.nonce === intent.nonce ? 'replacement' : undefined;
}
