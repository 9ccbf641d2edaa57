import type { Context, Middleware } from 'koa';
import type { BodyCache } from './bodyCache.ts';
import { validatorsMatch } from './conditionalGet.ts';
import { setEndpointHeaders } from './endpointHeaders.ts';
import { cacheControlOf, replayHit } from './replayHit.ts';
import { adopt } from './resolveEndpoint.ts';
import type { ResolvedUrls } from './resolvedUrls.ts';
import { dataVersionOf, type ResponseCacheOptions } from './responseCache.ts';

export interface CachedAnswerOptions extends Omit<ResponseCacheOptions, 'cache' | 'maxBytes'> {
  /** The response cache's entries (the same BodyCache as `responseCache`'s). */
  readonly cache: BodyCache;
  /** The URLs `resolveEndpoint` routed and validated (the same instance). */
  readonly resolved: ResolvedUrls;
  /** The pipeline's `beforeCache` middlewares: they set headers every answer of a matched request carries. */
  readonly beforeCache?: readonly Middleware[];
}

/**
 * Answers a fresh cache hit before the request-line limit, the router and query validation (issue 25):
 * only a request target that `resolveEndpoint` routed and validated has an entry in `resolved`, and
 * its endpoint and query depend on the target alone, so they need no second look. It answers as the
 * hit further down would, header for header and in the same order: the `beforeCache` headers, the
 * stored body and validators, X-Cache and Cache-Control, 304 on a matching validator, the endpoint's
 * own headers. Anything else (an unknown target, `updatedSince`, no fresh entry under the current
 * data version) goes on down the pipeline, which reaches the same entry by its canonical key.
 */
export function cachedAnswer(options: CachedAnswerOptions): Middleware {
  const { cache, resolved, clock } = options;
  const before = options.beforeCache ?? [];
  return async function answerFromCache(ctx, next) {
    const known = ctx.method === 'GET' || ctx.method === 'HEAD' ? resolved.get(ctx.url) : undefined;
    if (!known || known.bypass) {
      await next();
      return;
    }
    adopt(ctx, known);
    const { definition } = known.endpoint;
    const current = dataVersionOf(ctx, definition, options.getDataVersion);
    const version = typeof current === 'string' ? current : await current;
    const now = clock();
    const hit = cache.get(known.cacheKey, now, version);
    if (!hit) {
      await next();
      return;
    }
    await inOrder(before, ctx, () => {
      const unchanged = validatorsMatch(ctx, hit.etag, hit.lastModified);
      replayHit(ctx, hit, now, cacheControlOf(definition, options.ttlSeconds), unchanged ? 304 : 200);
    });
    setEndpointHeaders(ctx);
  };
}

/** Runs `middlewares` as Koa would, then `last`. */
async function inOrder(middlewares: readonly Middleware[], ctx: Context, last: () => void): Promise<void> {
  const step = async (i: number): Promise<void> => {
    const middleware = middlewares[i];
    if (middleware) await middleware(ctx, () => step(i + 1));
    else last();
  };
  await step(0);
}
