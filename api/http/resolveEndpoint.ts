import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import { ApiError } from './apiError.ts';
import { endpointRouter } from './endpointRouter.ts';
import { apiState, type MatchedEndpoint } from './requestState.ts';
import { parseQuery } from '../query/parseQuery.ts';
import { resolvedUrlBytes } from './resolvedUrlBytes.ts';

export interface ResolveEndpointOptions {
  /** Where the API is mounted; default `/api/v1`. */
  readonly basePath?: string;
}

export const ALLOWED_METHODS = 'GET, HEAD';

/**
 * Heap budget of the remembered resolutions, as `resolvedUrlBytes` estimates them: bounded in
 * bytes, not entries, since one valid URL may keep a thousand list items. Ten thousand typical
 * URLs fit, as the entry-count bound held before.
 */
export const RESOLVED_URL_BYTES = 8 * 1024 * 1024;

/**
 * Finds the endpoint of the request (@koa/router over the catalogue) and validates its query
 * before the cache and the route: an unknown path answers 404, another method than GET or
 * HEAD on a known path 405 with `Allow`, a bad query 400 naming every offending parameter.
 * On success the route reads the match with `matchedEndpointOf(ctx)` and the typed query with
 * `queryOf(ctx, name)`. (The router's own `allowedMethods()` answers OPTIONS with 200 and
 * unknown methods with 501; decisions.md wants 405 for both.)
 */
export function resolveEndpoint(options: ResolveEndpointOptions = {}): Middleware[] {
  const router = endpointRouter(options.basePath ?? '/api/v1');
  // A URL's endpoint and validated query depend on the URL alone, so a URL that resolved once is
  // not routed and validated again: most traffic repeats a few URLs (cache hits), and routing
  // plus validation were a tenth of a hit's CPU. Only successes are kept; a bad URL pays each time.
  const resolved = new LRUCache<string, { endpoint: MatchedEndpoint; query: unknown }>({
    maxSize: RESOLVED_URL_BYTES,
    sizeCalculation: (entry, url) => resolvedUrlBytes(url, entry.query),
  });
  const validateQuery: Middleware = async (ctx, next) => {
    const state = apiState(ctx);
    if (!state.endpoint) {
      if (router.match(ctx.path)) {
        throw new ApiError('METHOD_NOT_ALLOWED', `Method ${ctx.method} is not allowed; use GET or HEAD.`, {
          headers: { Allow: ALLOWED_METHODS },
        });
      }
      throw new ApiError('NOT_FOUND', 'No resource at this path.');
    }
    const parsed = parseQuery(state.endpoint.definition.name, ctx.querystring);
    if (!parsed.ok) {
      throw new ApiError('INVALID_REQUEST', 'One or more query parameters are invalid.', { details: parsed.details });
    }
    // Shared by every later request of this URL: nothing downstream may change it.
    state.query = Object.freeze(parsed.query);
    resolved.set(ctx.url, { endpoint: state.endpoint, query: state.query });
    await next();
  };
  const resolve: Middleware = async (ctx, next) => {
    const known = ctx.method === 'GET' || ctx.method === 'HEAD' ? resolved.get(ctx.url) : undefined;
    if (!known) {
      await router.routes(ctx, async () => {
        await validateQuery(ctx, next);
      });
      return;
    }
    const state = apiState(ctx);
    state.endpoint = known.endpoint;
    state.query = known.query;
    await next();
  };
  return [resolve];
}
