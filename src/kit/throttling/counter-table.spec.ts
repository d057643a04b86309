import fc from 'fast-check';
import { CounterTable } from './counter-table';

/** What the table should do, as the Map of the old store did it: insertion order, CLOCK. */
class ClockModel {
  readonly entries = new Map<string, { entry: number; used: boolean }>();

  constructor(private readonly max: number) {}

  /** The entry of `id`, and the id it pushed out, if any. */
  touch(id: string): { entry: number; evicted?: string } {
    const held = this.entries.get(id);
    if (held) {
      held.used = true;
      return { entry: held.entry };
    }
    let entry = this.entries.size;
    let evicted: string | undefined;
    if (this.entries.size >= this.max) {
      for (const [oldest, window] of this.entries) {
        this.entries.delete(oldest);
        if (!window.used) {
          entry = window.entry;
          evicted = oldest;
          break;
        }
        window.used = false;
        this.entries.set(oldest, window);
      }
    }
    this.entries.set(id, { entry, used: false });
    return { entry, evicted };
  }
}

const split = (id: string): [number, number] => {
  const [low, high] = id.split('/').map(Number);
  return [low, high];
};

describe('CounterTable', () => {
  it('starts with a small index and doubles it only up to what maxEntries needs', () => {
    expect(new CounterTable(3).capacity).toBe(8);
    const table = new CounterTable(100_000);
    expect(table.capacity).toBe(1024);
    for (let i = 0; i < 100_000; i++) table.entryFor(`client ${i}`, 'ip');
    expect(table.capacity).toBe(262_144);
    for (let i = 100_000; i < 150_000; i++) table.entryFor(`client ${i}`, 'ip');
    expect(table.capacity).toBe(262_144);
    expect(table.size).toBe(100_000);
  });

  it('refuses a maxEntries it cannot hold', () => {
    for (const max of [0, -1, 1.5, Number.NaN, Infinity, 2 ** 31])
      expect(() => new CounterTable(max)).toThrow(RangeError);
  });

  it('tells keys and names apart, and a key from its name joined to it', () => {
    const table = new CounterTable(10);
    const entries = [
      table.entryFor('k', 'ip'),
      table.entryFor('k', 'user'),
      table.entryFor('other', 'ip'),
      table.entryFor('a:b', 'c'),
      table.entryFor('a', 'b:c'),
      table.entryFor('', 'ip'),
      table.entryFor('ip', ''),
    ];
    expect(new Set(entries).size).toBe(entries.length);
    expect(table.entryFor('a:b', 'c')).toBe(entries[3]);
  });

  it('gives a new counter a window long expired and marks a found one used', () => {
    const table = new CounterTable(2);
    const entry = table.entryFor('k', 'ip');
    expect([table.hits[entry], table.resetAt[entry], table.blockedUntil[entry]]).toEqual([
      0,
      -Infinity,
      0,
    ]);
    table.hits[entry] = 7;
    expect(table.entryFor('k', 'ip')).toBe(entry);
    expect(table.hits[entry]).toBe(7);
    table.entryFor('second', 'ip');
    table.entryFor('third', 'ip');
    // Used, `k` was passed over and `second` went.
    expect(table.entryFor('k', 'ip')).toBe(entry);
    expect(table.hits[entry]).toBe(7);
  });

  it('gives a second chance: a counter counted again survives the next eviction, once', () => {
    const table = new CounterTable(3);
    const [a, b, c] = [
      table.entryForFingerprint(1, 1),
      table.entryForFingerprint(2, 1),
      table.entryForFingerprint(3, 1),
    ];
    table.entryForFingerprint(1, 1);
    expect(table.entryForFingerprint(4, 1)).toBe(b);
    expect([table.find(1, 1), table.find(2, 1), table.find(3, 1)]).toEqual([a, -1, c]);
    expect(table.entryForFingerprint(5, 1)).toBe(c);
    expect(table.find(1, 1)).toBe(a);
    // Its mark was spent when the hand passed it: not counted since, it goes next.
    expect(table.entryForFingerprint(6, 1)).toBe(a);
    expect(table.find(1, 1)).toBe(-1);
    expect(table.size).toBe(3);
  });

  it('shifts a cluster back across the end of the index when its head goes', () => {
    // Capacity 8: the home of a fingerprint is its low half & 7.
    const table = new CounterTable(5);
    expect(table.capacity).toBe(8);
    const ids = [
      [6, 1], // home 6, slot 6
      [14, 1], // home 6, slot 7
      [7, 0xffffffff], // home 7, slot 0
      [0xfffffff8, 2], // home 0, slot 1
      [1, 1], // home 1, slot 2
    ];
    const entries = ids.map(([low, high]) => table.entryForFingerprint(low, high));
    table.entryForFingerprint(3, 3); // evicts [6, 1]: the others move back one slot each
    expect(table.find(6, 1)).toBe(-1);
    ids.slice(1).forEach(([low, high], i) => expect(table.find(low, high)).toBe(entries[i + 1]));
    expect(table.find(3, 3)).toBe(entries[0]);
    table.entryForFingerprint(9, 9); // evicts [14, 1] from slot 6
    expect(table.find(14, 1)).toBe(-1);
    for (const [low, high] of [...ids.slice(2), [3, 3], [9, 9]])
      expect(table.find(low, high)).toBeGreaterThanOrEqual(0);
    // Same low half, other high half: a different counter.
    expect(table.find(7, 0)).toBe(-1);
  });

  it('matches the model: same entries, same victims, every held counter found', () => {
    const id = fc
      .tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 2 }))
      .map(([low, high]) => `${low}/${high}`);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(id, { maxLength: 300 }), (max, ids) => {
        const table = new CounterTable(max);
        const model = new ClockModel(max);
        for (const touched of ids) {
          const { entry, evicted } = model.touch(touched);
          expect(table.entryForFingerprint(...split(touched))).toBe(entry);
          if (evicted !== undefined) expect(table.find(...split(evicted))).toBe(-1);
          expect(table.size).toBe(model.entries.size);
          for (const [held, window] of model.entries)
            expect(table.find(...split(held))).toBe(window.entry);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('matches the model through growth', () => {
    const fingerprint = (n: number): string =>
      `${Math.imul(n, 0x9e3779b1) >>> 0}/${Math.imul(n ^ 0x5bd1e995, 0x85ebca6b) >>> 0}`;
    fc.assert(
      fc.property(
        fc.integer({ min: 700, max: 3_000 }),
        fc.array(fc.integer({ min: 0, max: 4_000 }), { minLength: 1_000, maxLength: 6_000 }),
        (max, ns) => {
          const table = new CounterTable(max);
          const model = new ClockModel(max);
          for (const n of ns)
            expect(table.entryForFingerprint(...split(fingerprint(n)))).toBe(
              model.touch(fingerprint(n)).entry,
            );
          expect(table.size).toBe(model.entries.size);
          for (const [held, window] of model.entries)
            expect(table.find(...split(held))).toBe(window.entry);
        },
      ),
      // Shrinking thousands of steps takes minutes: the seed fast-check prints replays a failure.
      { numRuns: 30, endOnFailure: true },
    );
  });
});
