import { RpcAnswerError } from '../../evm';

/** A block's number and its timestamp in seconds since the epoch. */
export interface BlockHeader {
  number: bigint;
  timestamp: bigint;
}

/** What the search needs from a chain: one block by number (`eth_getBlockByNumber`). */
export interface BlockSource {
  block(number: bigint): Promise<BlockHeader>;
}

/** Far more than any chain needs (a bisection of 2^64 blocks takes 64): a guard, not a budget. */
const MAX_STEPS = 128;

/**
 * The last block whose timestamp is at or before `target`: the chain's state as it was then.
 * A target before genesis answers the genesis block, one at or after `head` answers `head`.
 *
 * A bracketing search: each step narrows [lo, hi] with lo.timestamp ≤ target < hi.timestamp.
 * The probe is interpolated from the timestamps (block times are nearly regular, so a few probes
 * land on the block where plain bisection of tens of millions of blocks would need ~25 round
 * trips), and any step that fails to halve the range is followed by a plain midpoint, so the
 * worst case stays within twice a binary search.
 */
export async function findBlockAtTime(
  source: BlockSource,
  head: BlockHeader,
  target: bigint,
): Promise<BlockHeader> {
  if (head.timestamp <= target || head.number === 0n) return head;
  let lo = await source.block(0n);
  if (lo.timestamp > target) return lo;
  let hi = head;
  let bisect = false;
  for (let step = 0; hi.number - lo.number > 1n; step += 1) {
    if (step >= MAX_STEPS) throw new RpcAnswerError('the block search (it did not converge)');
    const width = hi.number - lo.number;
    const probe = bisect ? lo.number + width / 2n : interpolate(lo, hi, target);
    const block = await source.block(probe);
    // Timestamps never go back along a chain: a node saying otherwise cannot be searched.
    if (block.timestamp < lo.timestamp || block.timestamp > hi.timestamp) {
      throw new RpcAnswerError('eth_getBlockByNumber (block timestamps out of order)');
    }
    if (block.timestamp <= target) lo = block;
    else hi = block;
    bisect = (hi.number - lo.number) * 2n > width;
  }
  return lo;
}

/** The block the timestamps point at, kept strictly inside (lo, hi) so every probe narrows. */
function interpolate(lo: BlockHeader, hi: BlockHeader, target: bigint): bigint {
  const span = hi.timestamp - lo.timestamp;
  const guess = lo.number + ((target - lo.timestamp) * (hi.number - lo.number)) / span;
  if (guess <= lo.number) return lo.number + 1n;
  if (guess >= hi.number) return hi.number - 1n;
  return guess;
}
