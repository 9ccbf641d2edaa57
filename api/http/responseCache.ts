import { createHash } from 'node:crypto';
import { Readable, pipeline } from 'node:stream';
import type { Context, Middleware } from 'koa';
import type { DataListing, EndpointDefinition, EndpointName } from '../../schemas/api/endpoints.ts';
import { canonicalQueryKey } from '../query/canonicalQueryKey.ts';
import { BodyCache, type CachedBody } from './bodyCache.ts';
import { clientIp } from './clientIp.ts';
import { COMPRESS_MIN_BYTES, encodeAll, encodeBody, encoderStream, preferredCoding } from './contentCoding.ts';
import { cacheControlOf, markResponse, replayHit, sendBody, ttlOf } from './replayHit.ts';
import { apiState, loggerOf } from './requestState.ts';
import { JSON_TYPE, serializeBody } from './serializeBody.ts';
import { SingleFlight } from './singleFlight.ts';
import { StreamedBody, gatherBody, remainingBody } from './streamedBody.ts';
import { ifNoneMatchMatches, weakEtag } from './weakEtag.ts';
import type { ReleaseSlot, WorkGate } from './workGate.ts';

/** Default of `maxEntryBytes`. */
export const DEFAULT_ENTRY_MAX_BYTES = 1_048_576;

export interface ResponseCacheOptions {
  /** Budget of the cached bodies in bytes. */
  readonly maxBytes: number;
  /**
   * The answer budget: the largest body built whole in memory, hashed, compressed and cached. A
   * larger one is streamed as it is read, with a validator made from the data version, and
   * never cached. Default DEFAULT_ENTRY_MAX_BYTES.
   */
  readonly maxEntryBytes?: number;
  /**
   * The current data version of the request's endpoint, from the versions of the listings the
   * catalogue says it reads. The projector bumps a listing's version on every write to it; an
   * entry stored under another version is a miss, so a write invalidates the cache of every
   * API instance at once. Never asked for an endpoint with no listings (static documents).
   */
  readonly getDataVersion: (request: object, listings: readonly DataListing[]) => Promise<string> | string;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** Overrides of the catalogue's TTLs, in seconds. */
  readonly ttlSeconds?: Partial<Record<EndpointName, number>>;
  /** Inject to share or inspect the cache; default a new BodyCache of `maxBytes`. */
  readonly cache?: BodyCache;
  /** The bound on uncached work (misses and bypasses); none when absent. */
  readonly work?: WorkGate;
}

/**
 * Server-side cache of serialized 200 bodies, keyed on path plus the sorted query string.
 * Sets `X-Cache` (HIT, MISS, or BYPASS when `updatedSince` is present), `Cache-Control`
 * (`public, max-age=<TTL>`, or `no-store` on a bypass), the ETag of the stored bytes and, on
 * a hit, `Age`. Mount it after `resolveEndpoint` (it reads the matched endpoint and query)
 * and inside `conditionalGet` (which answers 304 from the ETag it sets).
 *
 * The work of a miss or a bypass runs inside `work`'s bound. Its body, when the route made it
 * piece by piece (StreamedBody), is gathered up to `maxEntryBytes`: within it, the body is sent
 * and cached whole, with its gzip and brotli codings made once beside it; past it, the body is
 * streamed (compressed on the fly when the client accepts it) and not cached.
 */
export function responseCache(options: ResponseCacheOptions): Middleware {
  const budget = options.maxEntryBytes ?? DEFAULT_ENTRY_MAX_BYTES;
  const cache = options.cache ?? new BodyCache(options.maxBytes);
  const flights = new SingleFlight<CachedBody>();
  const work = options.work;

  return async function cacheResponse(ctx, next) {
    const { endpoint: matched, resolved } = apiState(ctx);
    if (!matched || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    const { definition } = matched;
    const key = resolved?.cacheKey ?? canonicalQueryKey(ctx.path, ctx.querystring);
    const ttl = ttlOf(definition, options.ttlSeconds);
    if (resolved ? resolved.bypass : isBypass(apiState(ctx).query)) {
      const release = work ? await work.acquire(clientIp(ctx.ip)) : undefined;
      const version = async (): Promise<string> => dataVersionOf(ctx, definition, options.getDataVersion);
      await uncached(ctx, next, { release, budget, streamedTag: async () => streamedEtag(await version(), key, options.clock(), ttl) });
      if (ctx.status === 200) markResponse(ctx, 'BYPASS', 'no-store');
      return;
    }

    const cacheControl = cacheControlOf(definition, options.ttlSeconds);
    // Read before the data: a write landing during the query leaves this entry on the old version.
    const current = dataVersionOf(ctx, definition, options.getDataVersion);
    const version = typeof current === 'string' ? current : await current;
    const now = options.clock();
    const flightKey = `${version}\u0000${key}`;
    if (holdsStreamed(ctx, streamedEtag, [version, key, now, ttl], cacheControl)) return;
    const computeAndStore = () =>
      flights.run(flightKey, async () => {
        const release = work ? await work.acquire(clientIp(ctx.ip)) : undefined;
        const made = await uncached(ctx, next, { release, budget, streamedTag: () => streamedEtag(version, key, now, ttl) });
        if (made === 'streamed') {
          markResponse(ctx, 'MISS', cacheControl);
          return null;
        }
        // A static document (the reference page's files) is the app's own bytes, already in memory: kept whatever its size.
        const entryBudget = definition.listings.length === 0 ? Number.POSITIVE_INFINITY : budget;
        const entry = await storedResponse(ctx, { version, now, ttl, budget: entryBudget });
        if (made === 'whole' && !entry && ctx.status === 200) markResponse(ctx, 'MISS', cacheControl);
        if (entry) {
          cache.set(key, entry);
          sendBody(ctx, entry.body, entry.encoded);
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
    // A waiter whose flight failed (an error, a non-200 or a streamed body) computes for itself.
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

/**
 * The validator of a streamed answer, which is never held whole to be hashed: the data version,
 * the canonical URL and the TTL's time slot. The same data and URL give the same body within a
 * slot (a body computed on "today" may change with the day, as a cached one does within its TTL),
 * so it is a weak validator in RFC 9110's sense, the same on every instance. `s-` tells it apart
 * from a hash, so a request carrying one is answered before any work.
 */
export function streamedEtag(version: string, key: string, now: number, ttlSeconds: number): string {
  const slot = ttlSeconds > 0 ? Math.floor(now / (ttlSeconds * 1000)) : now;
  return `W/"s-${createHash('sha256').update(`${version}\n${slot}\n${key}`).digest('base64url')}"`;
}

/**
 * A client holding a streamed answer of this version revalidates without any work: 304 with the
 * validator, X-Cache HIT (its copy is current). False when the request carries no such validator.
 */
function holdsStreamed(ctx: Context, tagOf: typeof streamedEtag, at: Parameters<typeof streamedEtag>, cacheControl: string): boolean {
  const ifNoneMatch = ctx.get('If-None-Match');
  if (!ifNoneMatch.includes('"s-')) return false;
  const tag = tagOf(...at);
  if (!ifNoneMatchMatches(ifNoneMatch, tag)) return false;
  ctx.status = 304;
  ctx.vary('Accept-Encoding');
  ctx.set('ETag', tag);
  markResponse(ctx, 'HIT', cacheControl);
  return true;
}

interface UncachedOptions {
  readonly release: ReleaseSlot | undefined;
  readonly budget: number;
  readonly streamedTag: () => string | Promise<string>;
}

/**
 * Runs the route (inside the work slot) and makes its body: 'whole' when it is bytes within the
 * budget (an object body is left for the caller to serialize), 'streamed' when it is sent as it is
 * read. The slot is given back when the body is whole, or when the stream ends or is dropped.
 */
async function uncached(ctx: Context, next: () => Promise<unknown>, options: UncachedOptions): Promise<'whole' | 'streamed'> {
  const { release } = options;
  let streaming = false;
  try {
    await next();
    const body: unknown = ctx.body;
    if (ctx.status !== 200) return 'whole';
    if (!(body instanceof StreamedBody)) {
      await encodeUncached(ctx);
      return 'whole';
    }
    const gathered = await gatherBody(body, options.budget);
    ctx.type = body.contentType;
    if ('whole' in gathered) {
      ctx.body = gathered.whole;
      await encodeUncached(ctx);
      return 'whole';
    }
    const tag = await options.streamedTag();
    streaming = true;
    streamBody(ctx, gathered.head, gathered.rest, tag, release);
    return 'streamed';
  } finally {
    if (!streaming) release?.();
  }
}

/**
 * A body that is bytes and will not be cached (a bypass): its weak ETag from the plain bytes,
 * then the coding the client prefers. A cached miss is coded by `storedResponse` instead.
 */
async function encodeUncached(ctx: Context): Promise<void> {
  if (!isBypass(apiState(ctx).query) && !apiState(ctx).resolved?.bypass) return;
  const body = serializeBody(ctx);
  if (body) await encodeOnce(ctx, body);
}

/** The weak ETag of `body` and the coding the client prefers, for a body sent once and not kept. */
async function encodeOnce(ctx: Context, body: Buffer): Promise<void> {
  ctx.set('ETag', weakEtag(body));
  if (body.length < COMPRESS_MIN_BYTES) return;
  ctx.vary('Accept-Encoding');
  const coding = preferredCoding(ctx.get('Accept-Encoding'));
  if (!coding) return;
  ctx.body = await encodeBody(body, coding);
  ctx.set('Content-Encoding', coding);
}

/** Sends `head` and the rest of the body as they come, with backpressure; the slot goes back when the stream closes. */
function streamBody(
  ctx: Context,
  head: Buffer[],
  rest: AsyncIterator<string | Buffer>,
  tag: string,
  release: ReleaseSlot | undefined,
): void {
  // One chunk ahead of the socket at most: an item of a page can be megabytes.
  const source = Readable.from(remainingBody(head, rest), { highWaterMark: 1 });
  source.once('close', () => {
    void rest.return?.();
    release?.();
  });
  ctx.set('ETag', tag);
  ctx.vary('Accept-Encoding');
  const coding = preferredCoding(ctx.get('Accept-Encoding'));
  // Past the first bytes an error cannot become an error envelope: the connection is cut, so the
  // client sees an incomplete body (no final chunk), never one that looks whole.
  const cut = (err: Error | null | undefined): void => {
    if (!err) return;
    loggerOf(ctx)?.error({ err }, 'streamed answer failed');
    ctx.res.destroy();
  };
  if (coding) {
    ctx.body = pipeline(source, encoderStream(coding), cut);
    ctx.set('Content-Encoding', coding);
  } else {
    source.once('error', cut);
    ctx.body = source;
  }
}

/**
 * The response as a cache entry (its ETag set on the response), or null when it is not a cacheable
 * 200; a body built whole past the budget (a route's object, not a StreamedBody) is sent coded as
 * asked but not kept, so its codings are not made for nothing.
 */
async function storedResponse(ctx: Context, at: { version: string; now: number; ttl: number; budget: number }): Promise<CachedBody | null> {
  if (ctx.status !== 200) return null;
  const body = serializeBody(ctx);
  if (!body) return null;
  if (body.length > at.budget) {
    await encodeOnce(ctx, body);
    return null;
  }
  const etag = weakEtag(body);
  ctx.set('ETag', etag);
  const lastModified = ctx.response.get('Last-Modified') || undefined;
  const type: unknown = ctx.response.get('Content-Type');
  const contentType = typeof type === 'string' && type !== '' && type !== JSON_TYPE ? type : undefined;
  const encoded = await encodeAll(body);
  return {
    body,
    ...(encoded ? { encoded } : {}),
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
