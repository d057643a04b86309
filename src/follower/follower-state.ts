import type { Hash } from 'viem';

/** The last block a chain's follower handed on. */
export interface FollowerCursor {
  number: bigint;
  hash: Hash;
}

/**
 * The lease a follower holds, as its writes carry it: a token that grows with every new holder.
 * A write carrying a token older than the chain's latest is refused (FencedError): a follower
 * that paused past its lease while another took over can no longer move the cursor back, nor
 * settle an intent.
 */
export interface Fence {
  chainId: number;
  token: number;
}

/** A write refused because its follower's lease was taken over (a newer fencing token). */
export class FencedError extends Error {
  constructor(readonly fence: Fence) {
    super(`chain ${fence.chainId}: the follower's lease (token ${fence.token}) was taken over`);
    this.name = 'FencedError';
  }
}

/**
 * Where a chain's follower keeps its place (Redis when REDIS_URL is set, so a restart or another
 * replica resumes from it; process memory otherwise): the cursor, the hashes of the last blocks
 * (to find where a reorg forked), and the lease that lets one replica follow at a time.
 */
export interface FollowerState {
  cursor(chainId: number): Promise<FollowerCursor | undefined>;
  /**
   * Block `number` was handed on: it is the cursor, and its hash is kept among the last `keep`.
   * Refused (FencedError) when `fence` is no longer the chain's latest.
   */
  advance(fence: Fence, cursor: FollowerCursor, keep: number): Promise<void>;
  /** The hash recorded for a block, while it is among the last kept. */
  hashAt(chainId: number, number: bigint): Promise<Hash | undefined>;
  /** Back to `to` (a block both chains share, or a fresh start): every block above is forgotten. */
  rewind(fence: Fence, to: FollowerCursor): Promise<void>;
  /**
   * Takes or renews the lease to follow the chain for `ttlMs`: its fence (a new token when taken,
   * the same when renewed), or undefined while another owner holds it.
   */
  lease(chainId: number, owner: string, ttlMs: number): Promise<Fence | undefined>;
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

  advance({ chainId }: Fence, cursor: FollowerCursor, keep: number): Promise<void> {
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

  rewind({ chainId }: Fence, to: FollowerCursor): Promise<void> {
    const chain = this.chain(chainId);
    chain.cursor = to;
    for (const number of chain.hashes.keys()) if (number > to.number) chain.hashes.delete(number);
    chain.hashes.set(to.number, to.hash);
    return Promise.resolve();
  }

  /** One process follows alone: its lease never changes hands. */
  lease(chainId: number): Promise<Fence | undefined> {
    return Promise.resolve({ chainId, token: 1 });
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
