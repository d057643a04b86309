import type { PublicClient } from 'viem';
import type { FollowerCursor, FollowerState } from './follower-state';

/**
 * Where the node's chain and the follower's part: walking down from below `cursor`, the newest
 * block whose remembered hash the node still has. Past the remembered hashes (a reorg deeper than
 * OUTCOME_REORG_DEPTH) the oldest one's canonical block is taken as shared, and `deep` says so.
 * One header read a block walked.
 */
export async function forkPoint(
  state: FollowerState,
  client: PublicClient,
  chainId: number,
  cursor: FollowerCursor,
): Promise<{ ancestor: FollowerCursor; deep: boolean }> {
  for (let number = cursor.number - 1n; number >= 0n; number -= 1n) {
    const kept = await state.hashAt(chainId, number);
    const canonical = await client.getBlock({ blockNumber: number });
    if (!kept || kept === canonical.hash) {
      return { ancestor: { number, hash: canonical.hash }, deep: !kept };
    }
  }
  throw new Error(`Chain ${chainId}: no block is shared with the node's chain`);
}
