import { LRUCache } from 'lru-cache';
import { canonicalQueryKey } from '../query/canonicalQueryKey.ts';
import type { MatchedEndpoint } from './requestState.ts';
import { resolvedUrlBytes } from './resolvedUrlBytes.ts';

/** What a request target resolved to once: its endpoint, its validated (frozen) query and its response-cache key. */
export interface ResolvedUrl {
  readonly endpoint: MatchedEndpoint;
  readonly query: unknown;
  /** `canonicalQueryKey(path, query string)`: the key of its cached responses. */
  readonly cacheKey: string;
  /** `updatedSince` is present: never cached (X-Cache BYPASS). */
  readonly bypass: boolean;
}

/**
 * Heap budget of the remembered resolutions, as `resolvedUrlBytes` estimates them: bounded in
 * bytes, not entries, since one valid URL may keep a thousand list items. Ten thousand typical
 * URLs fit, as the entry-count bound held before.
 */
export const RESOLVED_URL_BYTES = 8 * 1024 * 1024;

/**
 * The request targets (`ctx.url`, exactly as the client spelled them) that were routed and whose
 * query was validated, least recently used dropped first. A URL's endpoint and query depend on
 * the URL alone, so what is remembered here is never routed or validated again: the response
 * cache answers a hit of such a URL before the router, and `resolveEndpoint` skips the work on
 * its other requests. Only successes are kept; a bad URL pays each time, and a URL spelled
 * otherwise (parameter order, encoding) is a new target that goes the whole way once.
 */
export class ResolvedUrls {
  readonly #entries = new LRUCache<string, ResolvedUrl>({
    maxSize: RESOLVED_URL_BYTES,
    sizeCalculation: (entry, url) => resolvedUrlBytes(url, entry.query) + 2 * entry.cacheKey.length,
  });

  get(url: string): ResolvedUrl | undefined {
    return this.#entries.get(url);
  }

  /** Remembers a target whose endpoint matched and whose query passed validation; returns the entry. */
  remember(url: string, at: { endpoint: MatchedEndpoint; query: unknown; path: string; querystring: string }): ResolvedUrl {
    const entry: ResolvedUrl = {
      endpoint: at.endpoint,
      query: at.query,
      cacheKey: canonicalQueryKey(at.path, at.querystring),
      bypass: isBypass(at.query),
    };
    this.#entries.set(url, entry);
    return entry;
  }
}

function isBypass(query: unknown): boolean {
  return typeof query === 'object' && query !== null && (query as { updatedSince?: unknown }).updatedSince !== undefined;
}
