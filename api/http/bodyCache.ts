import { LRUCache } from 'lru-cache';
import type { ContentCoding } from './contentCoding.ts';

export interface CachedBody {
  readonly body: Buffer;
  /** The body compressed once per coding, when it is large enough to gain from it (contentCoding.ts). */
  readonly encoded?: Readonly<Partial<Record<ContentCoding, Buffer>>>;
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

  /** `maxEntryBytes`: an entry larger than this (its body, its codings and bookkeeping) is not kept; default `maxBytes`. */
  constructor(maxBytes: number, maxEntryBytes: number = maxBytes) {
    if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new RangeError('maxBytes must be a positive integer');
    if (!Number.isInteger(maxEntryBytes) || maxEntryBytes < 1) throw new RangeError('maxEntryBytes must be a positive integer');
    this.#entries = new LRUCache<string, CachedBody>({
      maxSize: maxBytes,
      maxEntrySize: Math.min(maxBytes, maxEntryBytes),
      sizeCalculation: (entry, key) => entryBytes(entry, key),
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

  /** Stores an entry; one larger than the entry budget is silently not kept. */
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

/** What an entry costs the cache's budget: its bytes in every coding and its bookkeeping. */
export function entryBytes(entry: CachedBody, key: string): number {
  const encoded = entry.encoded ? (entry.encoded.br?.length ?? 0) + (entry.encoded.gzip?.length ?? 0) : 0;
  return entry.body.length + encoded + entry.etag.length + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}
