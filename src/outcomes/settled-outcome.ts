import type { TransactionReceipt } from 'viem';
import type { SettledStatus, TransactionIntent } from './outcome.types';
import { wrappedOutcome } from './wallet-evidence';

/**
 * How an intent seen in a mined transaction settles, from that transaction's receipt: a
 * replacement is `replaced`; the user's own transaction is `confirmed` or `reverted` by its
 * status; a smart wallet's by its own event (wallet-evidence.ts). Undefined when the receipt does
 * not show the wallet ran the call (the whole wrapper reverted, or said nothing of it): the intent
 * is watched again rather than settled on a guess.
 */
export function outcomeOf(
  intent: TransactionIntent,
  receipt: TransactionReceipt,
): SettledStatus | undefined {
  switch (intent.seenAs) {
    case 'replacement':
      return 'replaced';
    case 'user-operation':
      if (receipt.status !== 'success' || !receipt.to || intent.userOpNonce === undefined) {
        return undefined;
      }
      return wrappedOutcome(
        { sighting: 'user-operation', nonce: BigInt(intent.userOpNonce), entryPoint: receipt.to },
        intent.user,
        receipt.logs,
      );
    case 'safe':
      if (receipt.status !== 'success') return undefined;
      return wrappedOutcome({ sighting: 'safe' }, intent.user, receipt.logs);
    default:
      return receipt.status === 'success' ? 'confirmed' : 'reverted';
  }
}
