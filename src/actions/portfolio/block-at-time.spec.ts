import { RpcAnswerError } from '../../evm/transaction';
import { type BlockHeader, type BlockSource, findBlockAtTime } from './block-at-time';

/** A chain whose block n has timestamps[n]; counts every lookup. */
class FakeBlocks implements BlockSource {
  readonly asked: bigint[] = [];

  constructor(private readonly timestamps: readonly number[]) {}

  get head(): BlockHeader {
    return this.header(this.timestamps.length - 1);
  }

  block(number: bigint): Promise<BlockHeader> {
    this.asked.push(number);
    if (number < 0n || number >= BigInt(this.timestamps.length)) {
      return Promise.reject(new Error(`no block ${number}`));
    }
    return Promise.resolve(this.header(Number(number)));
  }

  private header(n: number): BlockHeader {
    return { number: BigInt(n), timestamp: BigInt(this.timestamps[n]) };
  }
}

/** The answer by definition: the last block at or before the target (genesis if none). */
function expected(timestamps: readonly number[], target: number): number {
  let found = 0;
  timestamps.forEach((t, n) => {
    if (t <= target) found = n;
  });
  return found;
}

const regular = (count: number, start = 1_000, step = 12): number[] =>
  Array.from({ length: count }, (_, n) => start + n * step);

describe('findBlockAtTime', () => {
  it.each([
    ['exactly on a block', 1_000 + 40 * 12],
    ['between two blocks', 1_000 + 40 * 12 + 5],
    ['just before the second block', 1_011],
    ['on genesis', 1_000],
    ['just before the head', 1_000 + 98 * 12 + 11],
  ])('finds the last block at or before the target (%s)', async (_case, target) => {
    const chain = new FakeBlocks(regular(100));
    const found = await findBlockAtTime(chain, chain.head, BigInt(target));
    expect(found.number).toBe(BigInt(expected(regular(100), target)));
  });

  it('answers the head without any lookup when the target is at or after it', async () => {
    const chain = new FakeBlocks(regular(10));
    const head = chain.head;
    expect(await findBlockAtTime(chain, head, head.timestamp)).toBe(head);
    expect(await findBlockAtTime(chain, head, head.timestamp + 1_000n)).toBe(head);
    expect(chain.asked).toEqual([]);
  });

  it('answers genesis when the target is before the chain began', async () => {
    const chain = new FakeBlocks(regular(50));
    const found = await findBlockAtTime(chain, chain.head, 10n);
    expect(found).toEqual({ number: 0n, timestamp: 1_000n });
    expect(chain.asked).toEqual([0n]);
  });

  it('handles a chain of one block', async () => {
    const chain = new FakeBlocks([500]);
    expect((await findBlockAtTime(chain, chain.head, 100n)).number).toBe(0n);
    expect(chain.asked).toEqual([]);
  });

  it('is right on irregular block times, for every target', async () => {
    // Bursts and gaps of hours, as a quiet test network or a halted chain produces.
    const timestamps = [0, 1, 2, 3, 3_600, 3_601, 3_602, 90_000, 90_012, 90_024, 400_000, 400_001];
    const chain = new FakeBlocks(timestamps);
    for (let target = 0; target <= 400_001; target += target < 10 ? 1 : 997) {
      const found = await findBlockAtTime(chain, chain.head, BigInt(target));
      expect(found.number).toBe(BigInt(expected(timestamps, target)));
    }
  });

  it('needs a handful of lookups on regular blocks where bisection would need about 25', async () => {
    const chain = new FakeBlocks(regular(30_000_000, 1_600_000_000, 2));
    const target = 1_600_000_000 + 2 * 29_000_000 + 1;
    const found = await findBlockAtTime(chain, chain.head, BigInt(target));
    expect(found.number).toBe(29_000_000n);
    expect(chain.asked.length).toBeLessThanOrEqual(4);
  });

  it('stays within twice a binary search when the timestamps mislead interpolation', async () => {
    // One long gap at the end: interpolation keeps probing near the start.
    const count = 1 << 16;
    const timestamps = regular(count - 1, 0, 1).concat([1e12]);
    const chain = new FakeBlocks(timestamps);
    const found = await findBlockAtTime(chain, chain.head, BigInt(count - 3));
    expect(found.number).toBe(BigInt(count - 3));
    expect(chain.asked.length).toBeLessThanOrEqual(2 * 16 + 2);
  });

  it('refuses a chain whose timestamps go back, rather than searching it', async () => {
    // Block 1 says it came before genesis: the first probe lands on it.
    const chain = new FakeBlocks([100, 50, 300, 400]);
    await expect(findBlockAtTime(chain, chain.head, 250n)).rejects.toBeInstanceOf(RpcAnswerError);
  });

  it('propagates a failed lookup', async () => {
    const failing: BlockSource = { block: () => Promise.reject(new Error('rpc down')) };
    const head = { number: 100n, timestamp: 2_000n };
    await expect(findBlockAtTime(failing, head, 1_000n)).rejects.toThrow('rpc down');
  });
});
