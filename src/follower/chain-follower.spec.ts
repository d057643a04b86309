import { type Hash, numberToHex } from 'viem';
import type { ChainRegistry } from '../evm';
import type { ChainRpc } from '../evm/chains/chain-rpc';
import type { RpcCall } from '../evm/chains/rpc-batch';
import type { ActionRegistry } from '../kit/action.registry';
import { AnswerTooLargeError } from '../outbound/http/upstream.error';
import { ChainFollower } from './chain-follower';
import type { BlockSubscriber, FollowedBlock } from './followed-block';
import type { FollowerMetrics } from './follower.metrics';
import { MemoryFollowerState } from './follower-state';

const CHAIN = 7;
const hashOf = (branch: string, n: number): Hash =>
  `0x${branch.repeat(2)}${n.toString(16).padStart(62, '0')}` as Hash;

interface FakeBlock {
  number: bigint;
  hash: Hash;
  parentHash: Hash;
  /** Calldata sizes (bytes) of the block's transactions. */
  sizes: number[];
}

const txOf = (block: FakeBlock, index: number): Record<string, unknown> => ({
  hash: `0x${'f'.repeat(56)}${Number(block.number).toString(16).padStart(4, '0')}${index.toString(16).padStart(4, '0')}`,
  from: '0x0000000000000000000000000000000000000001',
  to: null,
  input: `0x${'ab'.repeat(block.sizes[index])}`,
  value: '0x0',
  nonce: numberToHex(index),
});

/**
 * A node at the JSON-RPC level that the test grows and forks (block n of `branch` has a hash
 * naming both), refusing, as the RPC answer cap does, any answer over `cap` characters.
 */
class FakeChain {
  blocks: FakeBlock[] = [];
  requests: RpcCall[][] = [];
  cap = 1_000_000;

  get calls(): number {
    return this.requests.flat().length;
  }

  grow(count: number, branch = 'a', sizes: number[] = []): void {
    for (let i = 0; i < count; i++) {
      const n = this.blocks.length;
      const parentHash = n === 0 ? hashOf('0', 0) : this.blocks[n - 1].hash;
      this.blocks.push({ number: BigInt(n), hash: hashOf(branch, n), parentHash, sizes });
    }
  }

  fork(at: number, count: number, branch: string): void {
    this.blocks.length = at;
    this.grow(count, branch);
  }

  readonly rpc = {
    send: (calls: readonly RpcCall[]): Promise<PromiseSettledResult<unknown>[]> => {
      this.requests.push([...calls]);
      const results = calls.map((call) => this.answer(call));
      if (JSON.stringify(results).length > this.cap) {
        return Promise.reject(new AnswerTooLargeError(this.cap));
      }
      return Promise.resolve(results.map((value) => ({ status: 'fulfilled', value })));
    },
  };

  private answer({ method, params = [] }: RpcCall): unknown {
    if (method === 'eth_blockNumber') return numberToHex(this.blocks.length - 1);
    if (method === 'eth_getBlockByNumber') {
      const block = this.blocks[Number(BigInt(params[0] as string))];
      if (!block) return null;
      const transactions = block.sizes.map((_, i) =>
        params[1] ? txOf(block, i) : txOf(block, i).hash,
      );
      const { hash, parentHash } = block;
      return { number: numberToHex(block.number), hash, parentHash, transactions };
    }
    if (method === 'eth_getTransactionByBlockHashAndIndex') {
      const block = this.blocks.find((b) => b.hash === params[0]);
      return block ? txOf(block, Number(BigInt(params[1] as string))) : null;
    }
    throw new Error(`unexpected ${method}`);
  }
}

function setup(watching = true) {
  const chain = new FakeChain();
  chain.grow(10);
  const seen: bigint[] = [];
  const pages: FollowedBlock[] = [];
  const rewound: bigint[] = [];
  const skipped: [bigint, bigint, string][] = [];
  const subscriber: BlockSubscriber & { open: boolean } = {
    open: watching,
    watching() {
      return Promise.resolve(this.open);
    },
    block: (block: FollowedBlock) => {
      if (seen.at(-1) !== block.number || pages.at(-1)?.hash !== block.hash)
        seen.push(block.number);
      pages.push(block);
      return Promise.resolve();
    },
    head: () => Promise.resolve(),
    rewound: (_chainId, ancestor) => Promise.resolve(void rewound.push(ancestor)),
    skipped: (_chainId, from, to, reason) => Promise.resolve(void skipped.push([from, to, reason])),
  };
  const chains = { all: () => [{ chainId: CHAIN }] } as unknown as ChainRegistry;
  const rpc = { ownBatch: () => chain.rpc, maxBatchCalls: 4 } as unknown as ChainRpc;
  const actions = {
    actions: () => [
      { chains: { source: CHAIN } },
      { chains: { source: 99 }, responseType: 'data' },
    ],
  } as unknown as ActionRegistry;
  const metrics = {
    followed: jest.fn(),
    skippedBlocks: jest.fn(),
    reorged: jest.fn(),
    brokenLink: jest.fn(),
    oversized: jest.fn(),
  } as unknown as FollowerMetrics;
  const config = { pollMs: 1_000, catchupBlocks: 20, reorgDepth: 4 };
  const state = new MemoryFollowerState();
  const follower = new ChainFollower(chains, rpc, actions, config, state, metrics);
  follower.subscribe(subscriber);
  return { follower, chain, seen, pages, rewound, skipped, subscriber, metrics, state };
}

describe('ChainFollower', () => {
  it('starts OUTCOME_REORG_DEPTH blocks back from the head, then reads each new block once', async () => {
    const { follower, chain, seen } = setup();
    await follower.pass();
    expect(seen).toEqual([5n, 6n, 7n, 8n, 9n]);
    chain.grow(2);
    chain.requests.length = 0;
    await follower.pass();
    expect(seen.slice(5)).toEqual([10n, 11n]);
    // The head, then one call a block: a small block is read whole.
    expect(chain.requests.map((r) => r.map((c) => c.method))).toEqual([
      ['eth_blockNumber'],
      ['eth_getBlockByNumber'],
      ['eth_getBlockByNumber'],
    ]);
  });

  it('with nothing to watch makes no call at all', async () => {
    const { follower, chain } = setup(false);
    await follower.pass();
    expect(chain.calls).toBe(0);
  });

  it('back from idle reads back OUTCOME_REORG_DEPTH blocks, not everything it missed', async () => {
    const { follower, chain, seen, subscriber, metrics, skipped } = setup();
    await follower.pass();
    subscriber.open = false;
    await follower.pass();
    chain.grow(15);
    subscriber.open = true;
    seen.length = 0;
    await follower.pass();
    expect(seen).toEqual([20n, 21n, 22n, 23n, 24n]);
    expect(metrics.skippedBlocks).not.toHaveBeenCalled();
    expect(skipped).toEqual([]);
  });

  it('after a restart resumes from its cursor, skipping (counting, telling) past OUTCOME_CATCHUP_BLOCKS', async () => {
    const { follower, chain, seen, metrics, skipped } = setup();
    await follower.pass();
    chain.grow(30);
    seen.length = 0;
    await follower.pass();
    expect(seen[0]).toBe(20n);
    expect(seen.at(-1)).toBe(39n);
    expect(metrics.skippedBlocks).toHaveBeenCalledWith(CHAIN, 10n);
    expect(skipped).toEqual([[10n, 19n, 'catch-up']]);
  });

  it('a fork: rewinds to the newest shared block, then reads the new branch', async () => {
    const { follower, chain, seen, rewound, metrics } = setup();
    await follower.pass();
    chain.fork(8, 4, 'b');
    seen.length = 0;
    await follower.pass();
    expect(rewound).toEqual([7n]);
    expect(seen).toEqual([8n, 9n, 10n, 11n]);
    expect(metrics.brokenLink).not.toHaveBeenCalled();
  });
});

describe('ChainFollower, blocks over the answer cap', () => {
  it('hands a block too large for one answer on in pages, every transaction once, in order', async () => {
    const { follower, chain, pages, state } = setup();
    await follower.pass();
    // 10 transactions of 10 kB each (20 kB of hex): pages of 4 calls (maxBatchCalls) fit 50 kB.
    chain.cap = 50_000;
    chain.grow(1, 'a', Array<number>(10).fill(10_000));
    pages.length = 0;
    chain.requests.length = 0;
    await follower.pass();
    expect(pages.map((p) => p.transactions.length)).toEqual([2, 2, 2, 2, 2]);
    expect(pages.flatMap((p) => p.transactions.map((tx) => Number(tx.nonce)))).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(new Set(pages.map((p) => `${p.number}:${p.hash}`))).toEqual(
      new Set(['10:' + hashOf('a', 10)]),
    );
    expect((await state.cursor(CHAIN))?.number).toBe(10n);
    // Each request stays within RPC_MAX_BATCH_CALLS.
    expect(Math.max(...chain.requests.map((r) => r.length))).toBeLessThanOrEqual(4);
  });

  it('skips, counts and tells a transaction too large alone, and reads on', async () => {
    const { follower, chain, pages, skipped, metrics, seen } = setup();
    await follower.pass();
    chain.cap = 50_000;
    chain.grow(1, 'a', [100, 40_000, 100]);
    chain.grow(1);
    pages.length = 0;
    seen.length = 0;
    await follower.pass();
    expect(
      pages.filter((p) => p.number === 10n).flatMap((p) => p.transactions.map((t) => t.nonce)),
    ).toEqual([0, 2]);
    expect(skipped).toEqual([[10n, 10n, 'oversize']]);
    expect(metrics.oversized).toHaveBeenCalledWith(CHAIN, 1);
    expect(seen).toEqual([10n, 11n]);
  });
});

describe('ChainFollower, a node whose links do not agree', () => {
  it('takes a block whose parent never matches after one rewind, and reads on the same pass', async () => {
    const { follower, chain, seen, metrics } = setup();
    await follower.pass();
    chain.grow(5);
    // Block 12 names a parent the node never served as block 11.
    chain.blocks[12].parentHash = hashOf('c', 11);
    seen.length = 0;
    chain.requests.length = 0;
    await follower.pass();
    expect(seen.at(-1)).toBe(14n);
    expect(seen).toContain(12n);
    expect(metrics.brokenLink).toHaveBeenCalledTimes(1);
    // 5 blocks, one rewind (a header) and one block read again: bounded, not endless.
    expect(chain.calls).toBeLessThanOrEqual(1 + 5 + 1 + 1 + 1);
  });

  it('a node whose every link is broken costs one rewind a pass, and each pass reads on', async () => {
    const { follower, chain, seen } = setup();
    await follower.pass();
    for (let pass = 0; pass < 3; pass++) {
      chain.grow(3);
      for (const block of chain.blocks.slice(-3))
        block.parentHash = hashOf('d', Number(block.number));
      chain.requests.length = 0;
      await follower.pass();
      expect(seen.at(-1)).toBe(BigInt(chain.blocks.length - 1));
      expect(chain.calls).toBeLessThanOrEqual(1 + 3 + 2 + 2);
    }
  });

  it('a fork deeper than OUTCOME_REORG_DEPTH: counted as a broken link, followed from the depth', async () => {
    const { follower, chain, seen, rewound, metrics } = setup();
    await follower.pass();
    chain.fork(2, 10, 'e');
    seen.length = 0;
    await follower.pass();
    expect(rewound).toEqual([5n]);
    expect(seen).toEqual([6n, 7n, 8n, 9n, 10n, 11n]);
    expect(metrics.brokenLink).toHaveBeenCalled();
  });
});
