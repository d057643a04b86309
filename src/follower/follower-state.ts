import type { Hash } from 'viem';

/** The last block a chain's follower handed on. */
export interface FollowerCursor {
  number: bigint;
  hash: Hash;
}

/**
 * Where a chain's follower keeps its place (Redis when REDIS_URL is set, so a restart or another
 * replica resumes from it; process memory otherwise): the cursor, the hashes of the last blocks
 * (to find where a reorg forked), and the lease that lets one replica follow at a time.
 */
export interface FollowerState {
  cursor(chainId: number): Promise<FollowerCursor | undefined>;
  /** Block `number` was handed on: it is the cursor, and its hash is kept among the last `keep`. */
  advance(chainId: number, cursor: FollowerCursor, keep: number): Promise<void>;
  /** The hash recorded for a block, while it is among the last kept. */
  hashAt(chainId: number, number: bigint): Promise<Hash | undefined>;
  /** Back to `to` (a block both chains share, or a fresh start): every block above is forgotten. */
  rewind(chainId: number, to: FollowerCursor): Promise<void>;
  /** Takes or renews the lease to follow the chain for `ttlMs`; false while another owner holds it. */
  lease(chainId: number, owner: string, ttlMs: number): Promise<boolean>;
  release(chainId: number, owner: string): Promise<void>;
}

export const FOLLOWER_STATE = Symbol('FOLLOWER_STATE');

/** One replica's place, without Redis: it follows alone, and a restart starts at the head. */
export class MemoryFollowerState implements FollowerState {
  private readonly chains = new Map<
    number,
    { cursor?: FollowerCursor; hashes: Map<bigint, Hash> }
  >();

  cursor(chainId: number): Promise<FollowerCursor | undefined> {
    return Promise.resolve(this.chain(chainId).cursor);
  }

  advance(chainId: number, cursor: FollowerCursor, keep: number): Promise<void> {
    const chain = this.chain(chainId);
    chain.cursor = cursor;
    chain.hashes.set(cursor.number, cursor.hash);
    for (const number of chain.hashes.keys()) {
      if (number <= cursor.number - BigInt(keep)) chain.hashes.delete(number);
    }
    return Promise.resolve();
  }

  hashAt(chainId: number, number: bigint): Promise<Hash | undefined> {
    return Promise.resolve(this.chain(chainId).hashes.get(number));
  }

  rewind(chainId: number, to: FollowerCursor): Promise<void> {
    const chain = this.chain(chainId);
    chain.cursor = to;
    for (const number of chain.hashes.keys()) if (number > to.number) chain.hashes.delete(number);
    chain.hashes.set(to.number, to.hash);
    return Promise.resolve();
  }

  lease(): Promise<boolean> {
    return Promise.resolve(true);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  private chain(chainId: number): { cursor?: FollowerCursor; hashes: Map<bigint, Hash> } {
    let chain = this.chains.get(chainId);
    if (!chain) this.chains.set(chainId, (chain = { hashes: new Map() }));
    return chain;
  }
}
