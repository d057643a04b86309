import type { Hash } from 'viem';
import type { ChainRegistry } from '../evm';
import type { ActionRegistry } from '../kit/action.registry';
import { ChainFollower } from './chain-follower';
import type { BlockSubscriber, FollowedBlock } from './followed-block';
import type { FollowerMetrics } from './follower.metrics';
import { MemoryFollowerState } from './follower-state';

const CHAIN = 7;
const hashOf = (branch: string, n: number): Hash =>
  `0x${branch.repeat(2)}${n.toString(16).padStart(62, '0')}` as Hash;

/** A chain the test grows and forks: block n of `branch` has a hash naming both. */
class FakeChain {
  blocks: { number: bigint; hash: Hash; parentHash: Hash }[] = [];
  calls = 0;

  grow(count: number, branch = 'a'): void {
    for (let i = 0; i < count; i++) {
      const n = this.blocks.length;
      const parentHash = n === 0 ? hashOf('0', 0) : this.blocks[n - 1].hash;
      this.blocks.push({ number: BigInt(n), hash: hashOf(branch, n), parentHash });
    }
  }

  fork(at: number, count: number, branch: string): void {
    this.blocks.length = at;
    this.grow(count, branch);
  }

  readonly client = {
    getBlockNumber: () => {
      this.calls++;
      return Promise.resolve(BigInt(this.blocks.length - 1));
    },
    getBlock: ({ blockNumber }: { blockNumber: bigint }) => {
      this.calls++;
      return Promise.resolve({ ...this.blocks[Number(blockNumber)], transactions: [] });
    },
  };
}

function setup(watching = true) {
  const chain = new FakeChain();
  chain.grow(10);
  const seen: bigint[] = [];
  const rewound: bigint[] = [];
  const subscriber: BlockSubscriber & { open: boolean } = {
    open: watching,
    watching() {
      return Promise.resolve(this.open);
    },
    block: (block: FollowedBlock) => Promise.resolve(void seen.push(block.number)),
    head: () => Promise.resolve(),
    rewound: (_chainId, ancestor) => Promise.resolve(void rewound.push(ancestor)),
  };
  const chains = {
    all: () => [{ chainId: CHAIN }],
    client: () => chain.client,
  } as unknown as ChainRegistry;
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
  } as unknown as FollowerMetrics;
  const config = { pollMs: 1_000, catchupBlocks: 20, reorgDepth: 4 };
  const follower = new ChainFollower(chains, actions, config, new MemoryFollowerState(), metrics);
  follower.subscribe(subscriber);
  return { follower, chain, seen, rewound, subscriber, metrics };
}

describe('ChainFollower', () => {
  it('starts OUTCOME_REORG_DEPTH blocks back from the head, then reads each new block once', async () => {
    const { follower, chain, seen } = setup();
    await follower.pass();
    expect(seen).toEqual([5n, 6n, 7n, 8n, 9n]);
    chain.grow(2);
    await follower.pass();
    expect(seen.slice(5)).toEqual([10n, 11n]);
  });

  it('with nothing to watch makes no call at all', async () => {
    const { follower, chain } = setup(false);
    await follower.pass();
    expect(chain.calls).toBe(0);
  });

  it('back from idle reads back OUTCOME_REORG_DEPTH blocks, not everything it missed', async () => {
    const { follower, chain, seen, subscriber, metrics } = setup();
    await follower.pass();
    subscriber.open = false;
    await follower.pass();
    chain.grow(15);
    subscriber.open = true;
    seen.length = 0;
    await follower.pass();
    expect(seen).toEqual([20n, 21n, 22n, 23n, 24n]);
    expect(metrics.skippedBlocks).not.toHaveBeenCalled();
  });

  it('after a restart resumes from its cursor, skipping (and counting) past OUTCOME_CATCHUP_BLOCKS', async () => {
    const { follower, chain, seen, metrics } = setup();
    await follower.pass();
    chain.grow(30);
    seen.length = 0;
    await follower.pass();
    expect(seen[0]).toBe(20n);
    expect(seen.at(-1)).toBe(39n);
    expect(metrics.skippedBlocks).toHaveBeenCalledWith(CHAIN, 10n);
  });

  it('a fork: rewinds to the newest shared block, then reads the new branch', async () => {
    const { follower, chain, seen, rewound } = setup();
    await follower.pass();
    chain.fork(8, 4, 'b');
    seen.length = 0;
    await follower.pass();
    expect(rewound).toEqual([7n]);
    expect(seen).toEqual([8n, 9n, 10n, 11n]);
  });
});
