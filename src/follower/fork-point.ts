import type { BlockReader } from './block-reader';
import type { FollowerCursor, FollowerState } from './follower-state';

/**
 * Where the node's chain and the follower's part: walking down from below `cursor`, the newest
 * block whose remembered hash the node still has, at most `depth` (OUTCOME_REORG_DEPTH) blocks
 * down. Past the remembered hashes or the depth, no common block was found: the lowest block
 * walked is taken as shared, as the node has it, and `deep` says so. One header read a block.
 */
export async function forkPoint(
  state: FollowerState,
  reader: BlockReader,
  chainId: number,
  cursor: FollowerCursor,
  depth: number,
): Promise<{ ancestor: FollowerCursor; deep: boolean }> {
  const floor = cursor.number > BigInt(depth) ? cursor.number - BigInt(depth) : 0n;
  for (let number = cursor.number - 1n; number >= floor; number -= 1n) {
    const kept = await state.hashAt(chainId, number);
    const canonical = await reader.header(number);
    if (!kept || kept === canonical.hash || number === floor) {
      return { ancestor: { number, hash: canonical.hash }, deep: kept !== canonical.hash };
    }
  }
  // The cursor is block 0: nothing below it to share.
  const genesis = await reader.header(0n);
  return { ancestor: { number: 0n, hash: genesis.hash }, deep: true };
}
