import { tagsIn } from '../evm';
import type { FollowedTransaction } from '../follower/followed-block';
import { isIntentId } from './intent-id';
import { isOpen, type StoredIntent } from './intent-store';

/** An intent still waiting for its transaction on this chain. */
export const waiting = ({ intent }: StoredIntent, chainId: number): boolean =>
  isOpen(intent) && intent.chainId === chainId && intent.blockNumber === undefined;

/** The transactions carrying each answer tag (an intent id) found in a block. */
export function tagsOf(
  transactions: readonly FollowedTransaction[],
): Map<string, FollowedTransaction[]> {
  const tags = new Map<string, FollowedTransaction[]>();
  for (const tx of transactions) {
    for (const tag of tagsIn(tx.input)) {
      if (!isIntentId(tag)) continue;
      const carrying = tags.get(tag) ?? [];
      if (!carrying.includes(tx)) carrying.push(tx);
      tags.set(tag, carrying);
    }
  }
  return tags;
}

/** Untagged intents a transaction could be the call of: one at its nonce first, then the oldest. */
export const rank = ({ intent }: StoredIntent, tx: FollowedTransaction): number =>
  (intent.nonce === tx.nonce ? 0 : 1e15) + intent.createdAt;
