import type { Middleware } from 'koa';
import { serializeBody } from './serializeBody.ts';
import { ifNoneMatchMatches, weakEtag } from './weakEtag.ts';

/**
 * Gives every 200 to GET or HEAD a weak ETag (kept when the cache already set one) and turns
 * it into a 304 with no body when `If-None-Match` matches, on a cache hit and on a miss
 * alike. The other headers (Cache-Control, X-Cache, rate limit) stay on the 304.
 */
export function conditionalGet(): Middleware {
  return async function etag(ctx, next) {
    await next();
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
    if (ifNoneMatchMatches(ctx.get('If-None-Match'), tag)) ctx.status = 304;
  };
}
