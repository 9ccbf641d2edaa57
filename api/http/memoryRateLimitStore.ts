import { ClientSlotTable } from './clientSlotTable.ts';
import type { RateLimitDecision, RateLimitRequest, RateLimitStore } from './rateLimitStore.ts';

export interface MemoryRateLimitStoreOptions {
  readonly limit?: number;
  readonly windowSeconds?: number;
  /**
   * Upper bound of clients with a slot of their own (default 1,000,000); beyond it a new client
   * is counted in one of OVERFLOW_SLOTS slots shared by hash, so a flood of addresses never
   * unlocks an unlimited budget.
   */
  readonly maxClients?: number;
}

type Counters = Uint16Array | Uint32Array;

const CHUNK_SLOTS = 1024;
/** Slots shared by the clients beyond maxClients: enough that one flood seldom lands on a newcomer's. */
const OVERFLOW_SLOTS = 1024;

/**
 * A sliding window exact to the second, in process memory. Each client owns a slot: one
 * counter per second of the window, ring-indexed by epoch second, plus the last second seen
 * and the window total, all in typed arrays allocated in chunks of 1024 slots (with 60
 * 16-bit counters a slot costs 126 bytes; the key→slot table adds 16 to 32). Slots of
 * clients idle for a whole window are freed by a sweep that runs at most once per window,
 * when a new client arrives, so memory follows the clients of the last minute.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly limit: number;
  readonly windowSeconds: number;
  readonly maxClients: number;
  readonly #table = new ClientSlotTable();
  readonly #counts: Counters[] = [];
  readonly #totals: Counters[] = [];
  readonly #lastSecond: Uint32Array[] = [];
  readonly #free: number[] = [];
  #allocated = 0;
  #lastSweepSecond = 0;
  /** First of the OVERFLOW_SLOTS shared slots, allocated when the table first fills. */
  #overflowBase: number | undefined;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.limit = options.limit ?? 300;
    this.windowSeconds = options.windowSeconds ?? 60;
    this.maxClients = options.maxClients ?? 1_000_000;
    if (!Number.isInteger(this.windowSeconds) || this.windowSeconds < 1) throw new RangeError('windowSeconds must be a positive integer');
    if (!Number.isInteger(this.limit) || this.limit < 1) throw new RangeError('limit must be a positive integer');
  }

  /** Number of clients currently tracked. */
  get size(): number {
    return this.#table.size;
  }

  /** Bytes held by the typed arrays, which hold all per-client state. */
  get byteLength(): number {
    const chunks = this.#counts.reduce(
      (sum, chunk, i) => sum + chunk.byteLength + (this.#totals[i]?.byteLength ?? 0) + (this.#lastSecond[i]?.byteLength ?? 0),
      0,
    );
    return chunks + this.#table.byteLength;
  }

  consume(request: RateLimitRequest): RateLimitDecision {
    if (request.limit !== this.limit || request.windowSeconds !== this.windowSeconds) {
      throw new RangeError(
        `store built for ${this.limit} per ${this.windowSeconds}s, asked for ${request.limit} per ${request.windowSeconds}s`,
      );
    }
    const second = Math.floor(request.nowMs / 1000);
    let slot = this.#table.get(request.key);
    if (slot === undefined) {
      if (second - this.#lastSweepSecond >= this.windowSeconds) this.sweep(request.nowMs);
      slot = this.#allocate(second);
      if (slot === undefined) slot = this.#overflowSlot(request.key);
      else this.#table.add(request.key, slot);
    }
    const now = this.#advance(slot, second);
    const chunk = Math.floor(slot / CHUNK_SLOTS);
    const offset = slot % CHUNK_SLOTS;
    const counts = this.#counts[chunk] as Counters;
    const totals = this.#totals[chunk] as Counters;
    const total = totals[offset] ?? 0;
    if (total >= this.limit) return { allowed: false, remaining: 0, resetSeconds: this.#secondsUntilOldestLeaves(slot, now) };
    const index = offset * this.windowSeconds + this.#ring(now);
    counts[index] = (counts[index] ?? 0) + 1;
    totals[offset] = total + 1;
    return { allowed: true, remaining: this.limit - total - 1, resetSeconds: this.#secondsUntilOldestLeaves(slot, now) };
  }

  /** Frees the slots of clients with nothing left in the window; returns how many. */
  sweep(nowMs: number): number {
    const second = Math.floor(nowMs / 1000);
    this.#lastSweepSecond = second;
    const dropped = this.#table.retain((slot) => {
      const last = this.#lastSecond[Math.floor(slot / CHUNK_SLOTS)]?.[slot % CHUNK_SLOTS] ?? 0;
      return second - last < this.windowSeconds;
    });
    for (const slot of dropped) this.#release(slot);
    return dropped.length;
  }

  #allocate(second: number): number | undefined {
    let slot = this.#free.pop();
    if (slot === undefined) {
      if (this.#allocated >= this.maxClients) return undefined;
      slot = this.#allocated;
      this.#allocated += 1;
      if (slot % CHUNK_SLOTS === 0) this.#addChunk();
    }
    const lastSecond = this.#lastSecond[Math.floor(slot / CHUNK_SLOTS)] as Uint32Array;
    lastSecond[slot % CHUNK_SLOTS] = second;
    return slot;
  }

  /**
   * The shared slot of a client that found the table full: chosen by the table's seeded hash of
   * its key (callers cannot aim at a given slot), never in the table, so sweeps never free it.
   */
  #overflowSlot(key: string): number {
    if (this.#overflowBase === undefined) {
      this.#overflowBase = this.#allocated;
      for (let i = 0; i < OVERFLOW_SLOTS; i += 1, this.#allocated += 1) if (this.#allocated % CHUNK_SLOTS === 0) this.#addChunk();
    }
    return this.#overflowBase + (this.#table.hashOf(key) % OVERFLOW_SLOTS);
  }

  #addChunk(): void {
    const Counter = this.limit <= 0xffff ? Uint16Array : Uint32Array;
    this.#counts.push(new Counter(CHUNK_SLOTS * this.windowSeconds));
    this.#totals.push(new Counter(CHUNK_SLOTS));
    this.#lastSecond.push(new Uint32Array(CHUNK_SLOTS));
  }

  #release(slot: number): void {
    const chunk = Math.floor(slot / CHUNK_SLOTS);
    const offset = slot % CHUNK_SLOTS;
    this.#counts[chunk]?.fill(0, offset * this.windowSeconds, (offset + 1) * this.windowSeconds);
    const totals = this.#totals[chunk] as Counters;
    totals[offset] = 0;
    this.#free.push(slot);
  }

  /** Drops the seconds that left the window since the client's last request; returns the current second. */
  #advance(slot: number, second: number): number {
    const chunk = Math.floor(slot / CHUNK_SLOTS);
    const offset = slot % CHUNK_SLOTS;
    const lastSecond = this.#lastSecond[chunk] as Uint32Array;
    const counts = this.#counts[chunk] as Counters;
    const totals = this.#totals[chunk] as Counters;
    const last = lastSecond[offset] ?? 0;
    if (second <= last) return last; // same second, or a clock that stepped back: keep counting in the newest second
    const base = offset * this.windowSeconds;
    if (second - last >= this.windowSeconds) {
      counts.fill(0, base, base + this.windowSeconds);
      totals[offset] = 0;
    } else {
      let total = totals[offset] ?? 0;
      for (let s = last + 1; s <= second; s += 1) {
        const index = base + this.#ring(s);
        total -= counts[index] ?? 0;
        counts[index] = 0;
      }
      totals[offset] = total;
    }
    lastSecond[offset] = second;
    return second;
  }

  /** Position of an epoch second in a slot's ring (also for the negative seconds of a test clock near 0). */
  #ring(second: number): number {
    return ((second % this.windowSeconds) + this.windowSeconds) % this.windowSeconds;
  }

  #secondsUntilOldestLeaves(slot: number, now: number): number {
    const counts = this.#counts[Math.floor(slot / CHUNK_SLOTS)] as Counters;
    const base = (slot % CHUNK_SLOTS) * this.windowSeconds;
    for (let s = now - this.windowSeconds + 1; s <= now; s += 1) {
      if ((counts[base + this.#ring(s)] ?? 0) > 0) return s + this.windowSeconds - now;
    }
    return this.windowSeconds;
  }
}
