import type { Fence } from './follower-state';
import type { Address, Hash, Hex } from 'viem';

/** A transaction of a followed block: what matching it against open intents needs, no more. */
export interface FollowedTransaction {
  hash: Hash;
  from: Address;
  to: Address | null;
  input: Hex;
  value: bigint;
  nonce: number;
}

/**
 * A block on the canonical chain, as the follower hands it on: all its transactions, or one page
 * of them (a block too large for one answer is handed on in several, each with other
 * transactions, all with the block's number and hash).
 */
export interface FollowedBlock {
  chainId: number;
  number: bigint;
  hash: Hash;
  transactions: FollowedTransaction[];
  /** The lease of the follower handing it on: what the subscriber writes of it carries this. */
  fence?: Fence;
}

/**
 * Why blocks went unread: `catch-up`, more than OUTCOME_CATCHUP_BLOCKS behind after a restart or
 * an outage; `oversize`, a transaction whose JSON alone is over the RPC answer cap.
 */
export type SkipReason = 'catch-up' | 'oversize';

/**
 * What the layer above (src/outcomes) does with the chain: each new canonical block in order,
 * the head after each pass (for confirmation depth), a rewind when blocks above `ancestor` left
 * the chain, and the blocks it could not read. A method that throws stops the pass; the same
 * blocks are handed on again at the next one, so each must be idempotent.
 */
export interface BlockSubscriber {
  /**
   * Whether anything waits on these chains (an open intent, or one a reorg could still undo):
   * with nothing, a pass makes no call at all.
   */
  watching(chainIds: readonly number[]): Promise<boolean>;
  /**
   * A block's transactions, or a page of them: a large block comes in several calls with disjoint
   * pages, in order, before the next block (match per transaction, never per call).
   */
  block(block: FollowedBlock): Promise<void>;
  head(chainId: number, head: bigint, fence?: Fence): Promise<void>;
  rewound(chainId: number, ancestor: bigint, fence?: Fence): Promise<void>;
  /**
   * Blocks `from` to `to` (both included) were not read, or not whole: what they held is seen
   * only if reported. For `oversize`, from = to = the block with the transaction left out.
   */
  skipped(chainId: number, from: bigint, to: bigint, reason: SkipReason): Promise<void>;
}
