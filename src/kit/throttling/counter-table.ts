/** Share of the index's slots in use before it doubles: linear probing stays short below it. */
const MAX_LOAD = 0.7;
/** Slots of a new index: an idle service holds a few kilobytes. */
const FIRST_CAPACITY = 1024;

const loadLimit = (capacity: number): number => Math.floor(capacity * MAX_LOAD);

type Column = Float64Array | Uint32Array | Uint8Array;

function resized<T extends Column>(column: T, length: number): T {
  const next = new (column.constructor as new (length: number) => T)(length);
  next.set(column);
  return next;
}

/** MurmurHash3's finaliser: every input bit reaches every output bit. */
function fmix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * At most `maxEntries` counters, each named by a 64-bit fingerprint of (key, name), in typed
 * arrays only: the garbage collector sees a dozen objects however many counters are held, where
 * a Map of window objects made every major collection mark two objects per counter.
 *
 * Two parts. The entries (hits, resetAt, blockedUntil, used) are dense, in insertion order,
 * entry i at index i of each column. The index is an open-addressing hash table (linear probing,
 * power-of-two capacity, at most 70 % full) whose slots hold a fingerprint, as two 32-bit halves,
 * and its entry (plus one: 0 marks an empty slot); a removal shifts the rest of its cluster back
 * instead of leaving a tombstone, so probes stay as short as on the first day. Both double
 * together as counters arrive, up to what `maxEntries` needs, so memory follows use.
 *
 * Full, a new counter takes the place of one picked by CLOCK (second chance) over the entries in
 * their order: the hand passes over an entry counted since it last came by (clearing its mark)
 * and takes the first unmarked one; the new counter goes in that place and the hand moves past
 * it, so it comes last in turn. That is the order the Map kept (oldest first, a used one moved to
 * the end), without moving anything: the store drops exactly the counter it used to.
 */
export class CounterTable {
  /** Columns by entry. A growth replaces them: read them after `entryFor`, not before. */
  hits: Float64Array;
  resetAt: Float64Array;
  blockedUntil: Float64Array;
  /** Counted since the hand last came by. */
  private used: Uint8Array;
  /** The index slot of each entry, to remove an evicted entry without hashing it again. */
  private entrySlot: Uint32Array;

  private fingerprintLow: Uint32Array;
  private fingerprintHigh: Uint32Array;
  /** Entry + 1 of each slot; 0: empty. */
  private slotEntry: Uint32Array;
  private mask: number;

  private count = 0;
  private hand = 0;

  constructor(private readonly maxEntries: number) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1 || maxEntries > 2 ** 30)
      throw new RangeError(`maxKeys must be an integer from 1 to 2^30, not ${maxEntries}`);
    // The index's first size: FIRST_CAPACITY, or less when that is more than the cap needs.
    let needed = 2;
    while (loadLimit(needed) < maxEntries) needed *= 2;
    const capacity = Math.min(FIRST_CAPACITY, needed);
    this.fingerprintLow = new Uint32Array(capacity);
    this.fingerprintHigh = new Uint32Array(capacity);
    this.slotEntry = new Uint32Array(capacity);
    this.mask = capacity - 1;
    const entries = Math.min(maxEntries, loadLimit(capacity));
    this.hits = new Float64Array(entries);
    this.resetAt = new Float64Array(entries);
    this.blockedUntil = new Float64Array(entries);
    this.used = new Uint8Array(entries);
    this.entrySlot = new Uint32Array(entries);
  }

  /** Counters held. */
  get size(): number {
    return this.count;
  }

  /** Slots of the index as it stands. */
  get capacity(): number {
    return this.slotEntry.length;
  }

  /**
   * The entry of `name`'s counter for `key`, marked used if it was there; else a new entry, in
   * the place of the least recently used one when full, that reads as a window long expired
   * (hits 0, resetAt -Infinity, blockedUntil 0). The two halves of the fingerprint are FNV-1a
   * and MurmurHash3's mixing, each over `key`, its length, `name` and its length in one pass:
   * no `${key}:${name}` string is built, and a colon in a key cannot make two pairs one.
   */
  entryFor(key: string, name: string): number {
    let low = 0x811c9dc5;
    let high = 0x9747b28c;
    for (let part = 0, text = key; part < 2; part++, text = name) {
      for (let i = 0; i <= text.length; i++) {
        const unit = i < text.length ? text.charCodeAt(i) : text.length;
        low = Math.imul(low ^ unit, 0x01000193);
        let k = Math.imul(unit, 0xcc9e2d51);
        k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
        high ^= k;
        high = (Math.imul((high << 13) | (high >>> 19), 5) + 0xe6546b64) | 0;
      }
    }
    return this.entryForFingerprint(fmix32(low), fmix32(high));
  }

  /** `entryFor` once hashed: fingerprints as unsigned 32-bit halves. */
  entryForFingerprint(low: number, high: number): number {
    const found = this.find(low, high);
    if (found >= 0) {
      this.used[found] = 1;
      return found;
    }
    let entry: number;
    if (this.count === this.maxEntries) entry = this.evict();
    else {
      if (this.count === this.hits.length) this.grow();
      entry = this.count++;
    }
    this.entrySlot[entry] = this.place(low, high, entry);
    this.hits[entry] = 0;
    this.resetAt[entry] = -Infinity;
    this.blockedUntil[entry] = 0;
    this.used[entry] = 0;
    return entry;
  }

  /** The entry of a fingerprint, or -1; marks nothing. */
  find(low: number, high: number): number {
    for (let slot = low & this.mask; ; slot = (slot + 1) & this.mask) {
      const held = this.slotEntry[slot];
      if (held === 0) return -1;
      if (this.fingerprintLow[slot] === low && this.fingerprintHigh[slot] === high) return held - 1;
    }
  }

  /** Frees the entry the hand reaches first unmarked, clearing the marks it passes. */
  private evict(): number {
    let entry = this.hand;
    while (this.used[entry] === 1) {
      this.used[entry] = 0;
      entry = entry + 1 === this.maxEntries ? 0 : entry + 1;
    }
    this.removeSlot(this.entrySlot[entry]);
    this.hand = entry + 1 === this.maxEntries ? 0 : entry + 1;
    return entry;
  }

  /**
   * Empties a slot, then moves back each later slot of its cluster whose home (where its probe
   * starts) is not between the hole and it, so that every probe still meets its fingerprint
   * before an empty slot.
   */
  private removeSlot(hole: number): void {
    const mask = this.mask;
    for (let slot = (hole + 1) & mask; ; slot = (slot + 1) & mask) {
      const held = this.slotEntry[slot];
      if (held === 0) break;
      const home = this.fingerprintLow[slot] & mask;
      if (((slot - home) & mask) < ((slot - hole) & mask)) continue;
      this.fingerprintLow[hole] = this.fingerprintLow[slot];
      this.fingerprintHigh[hole] = this.fingerprintHigh[slot];
      this.slotEntry[hole] = held;
      this.entrySlot[held - 1] = hole;
      hole = slot;
    }
    this.slotEntry[hole] = 0;
  }

  /** Writes a fingerprint absent from the index in the first empty slot from its home. */
  private place(low: number, high: number, entry: number): number {
    let slot = low & this.mask;
    while (this.slotEntry[slot] !== 0) slot = (slot + 1) & this.mask;
    this.fingerprintLow[slot] = low;
    this.fingerprintHigh[slot] = high;
    this.slotEntry[slot] = entry + 1;
    return slot;
  }

  /** Doubles the index (placing every entry again) and makes room for the entries it allows. */
  private grow(): void {
    const capacity = this.capacity * 2;
    const { fingerprintLow, fingerprintHigh } = this;
    this.fingerprintLow = new Uint32Array(capacity);
    this.fingerprintHigh = new Uint32Array(capacity);
    this.slotEntry = new Uint32Array(capacity);
    this.mask = capacity - 1;
    const entries = Math.min(this.maxEntries, loadLimit(capacity));
    this.hits = resized(this.hits, entries);
    this.resetAt = resized(this.resetAt, entries);
    this.blockedUntil = resized(this.blockedUntil, entries);
    this.used = resized(this.used, entries);
    this.entrySlot = resized(this.entrySlot, entries);
    for (let entry = 0; entry < this.count; entry++) {
      const slot = this.entrySlot[entry];
      this.entrySlot[entry] = this.place(fingerprintLow[slot], fingerprintHigh[slot], entry);
    }
  }
}
