import { randomInt } from 'node:crypto';

const EMPTY = 0;
const MAX_LOAD = 0.75;

/**
 * Maps a client key to its counter slot in typed arrays: open addressing with linear probing
 * over a 64-bit seeded hash of the key, 12 bytes per bucket, at most 75 % full. Fixed cost
 * per client whatever the key looks like (an IPv6 string or a sliced header costs what an
 * IPv4 does), and no per-client object for the GC. The random seed keeps callers from
 * aiming collisions at another client; two clients share a budget only if their 64-bit
 * hashes collide. Entries are removed by rebuilding, which the store does once per window.
 */
export class ClientSlotTable {
  #hashHigh: Uint32Array;
  #hashLow: Uint32Array;
  /** slot + 1; 0 marks an empty bucket. */
  #slots: Uint32Array;
  #size = 0;
  readonly #seed: number;

  constructor(capacity = 1024, seed: number = randomInt(0, 2 ** 32)) {
    const buckets = 2 ** Math.ceil(Math.log2(Math.max(16, capacity)));
    this.#hashHigh = new Uint32Array(buckets);
    this.#hashLow = new Uint32Array(buckets);
    this.#slots = new Uint32Array(buckets);
    this.#seed = seed;
  }

  get size(): number {
    return this.#size;
  }

  get byteLength(): number {
    return this.#hashHigh.byteLength + this.#hashLow.byteLength + this.#slots.byteLength;
  }

  /** The slot of `key`, or undefined. */
  get(key: string): number | undefined {
    const [high, low] = this.#hash(key);
    const stored = this.#slots[this.#find(high, low)] ?? EMPTY;
    return stored === EMPTY ? undefined : stored - 1;
  }

  /** Records the slot of a key that is not in the table yet. */
  add(key: string, slot: number): void {
    if ((this.#size + 1) / this.#slots.length > MAX_LOAD) this.#rebuild(this.#slots.length * 2, () => true);
    const [high, low] = this.#hash(key);
    this.#place(high, low, slot + 1);
    this.#size += 1;
  }

  /** Keeps the entries whose slot passes `keep`; returns the slots dropped. Shrinks when sparse. */
  retain(keep: (slot: number) => boolean): number[] {
    const dropped = new Set<number>();
    for (const stored of this.#slots) {
      if (stored !== EMPTY && !keep(stored - 1)) dropped.add(stored - 1);
    }
    const remaining = this.#size - dropped.size;
    let buckets = this.#slots.length;
    while (buckets > 1024 && remaining / buckets < MAX_LOAD / 4) buckets /= 2;
    this.#rebuild(buckets, (slot) => !dropped.has(slot));
    return [...dropped];
  }

  #rebuild(buckets: number, keep: (slot: number) => boolean): void {
    const [oldHigh, oldLow, oldSlots] = [this.#hashHigh, this.#hashLow, this.#slots];
    this.#hashHigh = new Uint32Array(buckets);
    this.#hashLow = new Uint32Array(buckets);
    this.#slots = new Uint32Array(buckets);
    this.#size = 0;
    for (let i = 0; i < oldSlots.length; i += 1) {
      const stored = oldSlots[i] ?? EMPTY;
      if (stored === EMPTY || !keep(stored - 1)) continue;
      this.#place(oldHigh[i] ?? 0, oldLow[i] ?? 0, stored);
      this.#size += 1;
    }
    // While growing every entry is kept, so the table never grows past its load limit here.
    if (this.#size / buckets > MAX_LOAD) throw new RangeError('client table over its load limit');
  }

  #place(high: number, low: number, stored: number): void {
    const bucket = this.#find(high, low);
    this.#hashHigh[bucket] = high;
    this.#hashLow[bucket] = low;
    this.#slots[bucket] = stored;
  }

  /** The bucket holding the hash, or the empty bucket where it belongs. */
  #find(high: number, low: number): number {
    const mask = this.#slots.length - 1;
    let bucket = low & mask;
    while ((this.#slots[bucket] ?? EMPTY) !== EMPTY && (this.#hashHigh[bucket] !== high || this.#hashLow[bucket] !== low)) {
      bucket = (bucket + 1) & mask;
    }
    return bucket;
  }

  /**
   * 32 bits of the table's seeded hash of `key`: for spreading keys the table does not hold over
   * a few buckets of the caller's (the rate limiter's shared slots) without a second hash.
   */
  hashOf(key: string): number {
    return this.#hash(key)[1];
  }

  /** 64-bit seeded hash of the UTF-16 code units (cyrb53's mixing, both halves kept). */
  #hash(key: string): [number, number] {
    let h1 = 0xdeadbeef ^ this.#seed;
    let h2 = 0x41c6ce57 ^ this.#seed;
    for (let i = 0; i < key.length; i += 1) {
      const unit = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ unit, 2654435761);
      h2 = Math.imul(h2 ^ unit, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return [h2 >>> 0, h1 >>> 0];
  }
}
