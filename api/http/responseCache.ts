import type { Context, Middleware } from 'koa';
import type { DataListing, EndpointDefinition, EndpointName } from '../../schemas/api/endpoints.ts';
import { canonicalQueryKey } from '../query/canonicalQueryKey.ts';
import { BodyCache, type CachedBody } from './bodyCache.ts';
import { cacheControlOf, markResponse, replayHit, ttlOf } from './replayHit.ts';
import { apiState } from './requestState.ts';
import { JSON_TYPE, serializeBody } from './serializeBody.ts';
import { SingleFlight } from './singleFlight.ts';
import { weakEtag } from './weakEtag.ts';

export interface ResponseCacheOptions {
  /** Budget of the cached bodies in bytes. */
  readonly maxBytes: number;
  /**
   * The current data version of the request's endpoint, from the versions of the listings the
   * catalogue says it reads. The projector bumps a listing's version on every write to it; an
   * entry stored under another version is a miss, so a write invalidates the cache of every
   * API instance at once. Never asked for an endpoint with no listings (static documents).
   */
  readonly getDataVersion: (ctx: Context, listings: readonly DataListing[]) => Promise<string> | string;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** Overrides of the catalogue's TTLs, in seconds. */
  readonly ttlSeconds?: Partial<Record<EndpointName, number>>;
  /** Inject to share or inspect the cache; default a new BodyCache of `maxBytes`. */
  readonly cache?: BodyCache;
}

/**
 * Server-side cache of serialized 200 bodies, keyed on path plus the sorted query string.
 * Sets `X-Cache` (HIT, MISS, or BYPASS when `updatedSince` is present), `Cache-Control`
 * (`public, max-age=<TTL>`, or `no-store` on a bypass), the ETag of the stored bytes and, on
 * a hit, `Age`. Mount it after `resolveEndpoint` (it reads the matched endpoint and query)
 * and inside `conditionalGet` (which answers 304 from the ETag it sets).
 */
export function responseCache(options: ResponseCacheOptions): Middleware {
  const cache = options.cache ?? new BodyCache(options.maxBytes);
  const flights = new SingleFlight<CachedBody>();

  return async function cacheResponse(ctx, next) {
    const { endpoint: matched, resolved } = apiState(ctx);
    if (!matched || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    const { definition } = matched;
    if (resolved ? resolved.bypass : isBypass(apiState(ctx).query)) {
      await next();
      if (ctx.status === 200) markResponse(ctx, 'BYPASS', 'no-store');
      return;
    }

    const ttl = ttlOf(definition, options.ttlSeconds);
    const cacheControl = cacheControlOf(definition, options.ttlSeconds);
    const key = resolved?.cacheKey ?? canonicalQueryKey(ctx.path, ctx.querystring);
    // Read before the data: a write landing during the query leaves this entry on the old version.
    const current = dataVersionOf(ctx, definition, options.getDataVersion);
    const version = typeof current === 'string' ? current : await current;
    const now = options.clock();
    const flightKey = `${version}\u0000${key}`;
    const computeAndStore = () =>
      flights.run(flightKey, async () => {
        await next();
        const entry = storedResponse(ctx, { version, now, ttl });
        if (entry) {
          cache.set(key, entry);
          markResponse(ctx, 'MISS', cacheControl);
        }
        return entry;
      });

    // Check and claim without an `await` in between: requests resuming from one coalesced
    // version read run in the same tick, and a yield here let every one of them find no flight
    // and query the database (a herd of full scans each time a popular entry expired).
    const stored = cache.get(key, now, version);
    const pending = stored ? undefined : flights.pending(flightKey);
    if (!stored && !pending) {
      await computeAndStore();
      return;
    }
    // A waiter whose flight failed (an error or a non-200) computes for itself.
    const hit = stored ?? (await pending);
    if (hit) replayHit(ctx, hit, now, cacheControl);
    else await computeAndStore();
  };
}

/** The data version a cached answer of `definition` must carry to be served now ('static': a document with no listings). */
export function dataVersionOf(
  ctx: Context,
  definition: EndpointDefinition,
  getDataVersion: ResponseCacheOptions['getDataVersion'],
): Promise<string> | string {
  return definition.listings.length === 0 ? 'static' : getDataVersion(ctx, definition.listings);
}

/** The response as a cache entry (its ETag set on the response), or null when it is not a cacheable 200. */
function storedResponse(ctx: Context, at: { version: string; now: number; ttl: number }): CachedBody | null {
  if (ctx.status !== 200) return null;
  const body = serializeBody(ctx);
  if (!body) return null;
  const etag = weakEtag(body);
  ctx.set('ETag', etag);
  const lastModified = ctx.response.get('Last-Modified') || undefined;
  const type: unknown = ctx.response.get('Content-Type');
  const contentType = typeof type === 'string' && type !== '' && type !== JSON_TYPE ? type : undefined;
  return {
    body,
    etag,
    version: at.version,
    storedAtMs: at.now,
    expiresAtMs: at.now + at.ttl * 1000,
    ...(lastModified ? { lastModified } : {}),
    ...(contentType ? { contentType } : {}),
  };
}

function isBypass(query: unknown): boolean {
  return typeof query === 'object' && query !== null && (query as { updatedSince?: unknown }).updatedSince !== undefined;
}
