/** A 200's body kept with its ETag, served again when the API answers 304 to that ETag. */
export interface CachedBody {
  readonly etag: string;
  readonly body: unknown;
}

/** Where the client keeps bodies by URL: the in-memory one below, or a store of your own. */
export interface EtagCache {
  get(url: string): CachedBody | undefined;
  set(url: string, entry: CachedBody): void;
}

/** The least recently used of at most `maxEntries` bodies, in this process's memory. */
export class MemoryEtagCache implements EtagCache {
  readonly #entries = new Map<string, CachedBody>();
  readonly #maxEntries: number;

  constructor(maxEntries = 500) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be an integer of at least 1');
    this.#maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(url: string): CachedBody | undefined {
    const entry = this.#entries.get(url);
    if (entry !== undefined) {
      // A Map iterates in insertion order: re-inserting makes this the most recently used.
      this.#entries.delete(url);
      this.#entries.set(url, entry);
    }
    return entry;
  }

  set(url: string, entry: CachedBody): void {
    this.#entries.delete(url);
    this.#entries.set(url, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }
}
