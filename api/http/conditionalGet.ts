import type { Context, Middleware } from 'koa';
import { serializeBody } from './serializeBody.ts';
import { ifNoneMatchMatches, weakEtag } from './weakEtag.ts';

/**
 * Gives every 200 to GET or HEAD a weak ETag (kept when the cache already set one) and turns
 * it into a 304 with no body when `If-None-Match` matches, on a cache hit and on a miss
 * alike; without `If-None-Match`, when `If-Modified-Since` is not older than the body's
 * `Last-Modified` (RFC 9110 13.2.2: the entity tag takes precedence). The other headers
 * (Cache-Control, X-Cache, rate limit) stay on the 304.
 *
 * Not Koa's `ctx.fresh` (the `fresh` package): it answers "stale" to any request carrying
 * `Cache-Control: no-cache` and requires `If-Modified-Since` to pass as well when both
 * validators are sent, so a matching `If-None-Match` would get a 200 where the reference
 * promises a 304 (the httpPipeline test "whatever Cache-Control or If-Modified-Since say").
 */
export function conditionalGet(): Middleware {
  return async function etag(ctx, next) {
    await next();
    answerConditionally(ctx);
  };
}

/** What `conditionalGet` does once the response is made: ETag on a 200, and 304 when the request's validators match. */
export function answerConditionally(ctx: Context): void {
  if (ctx.status !== 200 || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return;
  // Koa's typings say string, but an absent header reads as undefined.
  const existing: unknown = ctx.response.get('ETag');
  let tag = typeof existing === 'string' ? existing : '';
  if (tag === '') {
    const bytes = serializeBody(ctx);
    if (!bytes) return;
    tag = weakEtag(bytes);
    ctx.set('ETag', tag);
  }
  if (validatorsMatch(ctx, tag, ctx.response.get('Last-Modified'))) {
    ctx.status = 304;
    // The 304 carries no body, so no coding of one (Vary stays: it names what chose the body).
    ctx.remove('Content-Encoding');
  }
}

/**
 * Whether the request's validators say the client holds this representation: a matching
 * `If-None-Match`, or without one an `If-Modified-Since` no older than `lastModified`.
 */
export function validatorsMatch(ctx: Context, etag: string, lastModified: unknown): boolean {
  const ifNoneMatch = ctx.get('If-None-Match');
  return ifNoneMatch !== '' ? ifNoneMatchMatches(ifNoneMatch, etag) : notModifiedSince(ctx.get('If-Modified-Since'), lastModified);
}

/** True when the representation last modified at `lastModified` is no newer than `ifModifiedSince` (both HTTP dates). */
export function notModifiedSince(ifModifiedSince: string, lastModified: unknown): boolean {
  if (ifModifiedSince === '' || typeof lastModified !== 'string' || lastModified === '') return false;
  const since = Date.parse(ifModifiedSince);
  const modified = Date.parse(lastModified);
  // An unparseable date is ignored, as RFC 9110 asks.
  return Number.isFinite(since) && Number.isFinite(modified) && modified <= since;
}
