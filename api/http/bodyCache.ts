import { LRUCache } from 'lru-cache';

export interface CachedBody {
  readonly body: Buffer;
  readonly etag: string;
  /** `Last-Modified` of a detail body (an HTTP date), replayed on hits for If-Modified-Since. */
  readonly lastModified?: string;
  /** `Content-Type` of a body that is not JSON (the calendar feed), replayed on hits; JSON when absent. */
  readonly contentType?: string;
  /** The data version the body was read under; another current version makes it a miss. */
  readonly version: string;
  readonly storedAtMs: number;
  readonly expiresAtMs: number;
}

/** Bookkeeping per entry on top of the body bytes (key, ETag, object headers). */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Serialized response bodies bounded in bytes, least recently used evicted first. Expiry is
 * checked by the caller against its injected clock, so tests never wait.
 */
export class BodyCache {
  readonly #entries: LRUCache<string, CachedBody>;

  constructor(maxBytes: number) {
    if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new RangeError('maxBytes must be a positive integer');
    this.#entries = new LRUCache<string, CachedBody>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => entry.body.length + entry.etag.length + key.length * 2 + ENTRY_OVERHEAD_BYTES,
    });
  }

  /** The entry for `key` if it is still fresh at `nowMs` under `version`; a stale one is dropped. */
  get(key: string, nowMs: number, version: string): CachedBody | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version === version && entry.expiresAtMs > nowMs) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  /** Stores an entry; one larger than the whole budget is silently not kept. */
  set(key: string, entry: CachedBody): void {
    this.#entries.set(key, entry);
  }

  get entries(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#entries.calculatedSize;
  }
}
