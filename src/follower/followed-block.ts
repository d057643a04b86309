import type { Address, Block, Hash, Hex, Transaction } from 'viem';

/** A transaction of a followed block: what matching it against open intents needs, no more. */
export interface FollowedTransaction {
  hash: Hash;
  from: Address;
  to: Address | null;
  input: Hex;
  value: bigint;
  nonce: number;
}

/** A block on the canonical chain, as the follower hands it on. */
export interface FollowedBlock {
  chainId: number;
  number: bigint;
  hash: Hash;
  transactions: FollowedTransaction[];
}

/**
 * What the layer above (src/outcomes) does with the chain: each new canonical block in order,
 * the head after each pass (for confirmation depth), and a rewind when blocks above `ancestor`
 * left the chain. A method that throws stops the pass; the same blocks are handed on again at
 * the next one, so each must be idempotent.
 */
export interface BlockSubscriber {
  /**
   * Whether anything waits on these chains (an open intent, or one a reorg could still undo):
   * with nothing, a pass makes no call at all.
   */
  watching(chainIds: readonly number[]): Promise<boolean>;
  block(block: FollowedBlock): Promise<void>;
  head(chainId: number, head: bigint): Promise<void>;
  rewound(chainId: number, ancestor: bigint): Promise<void>;
}

/** A block as viem reads it with its transactions, cut to what the subscriber needs. */
export function toFollowedBlock(
  chainId: number,
  block: Block<bigint, true, 'latest'>,
): FollowedBlock {
  return {
    chainId,
    number: block.number,
    hash: block.hash,
    transactions: block.transactions.map((tx: Transaction) => ({
      hash: tx.hash,
      from: tx.from,
      to: tx.to,
      input: tx.input,
      value: tx.value,
      nonce: tx.nonce,
    })),
  };
}
