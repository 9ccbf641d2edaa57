import type { Middleware } from 'koa';
import { ApiError } from './apiError.ts';
import { endpointRouter } from './endpointRouter.ts';
import { apiState } from './requestState.ts';
import { parseQuery } from '../query/parseQuery.ts';
import { ResolvedUrls, type ResolvedUrl } from './resolvedUrls.ts';

export interface ResolveEndpointOptions {
  /** Where the API is mounted; default `/api/v1`. */
  readonly basePath?: string;
  /** Where resolved URLs are remembered; pass one to share it with the response cache's early answer. */
  readonly resolved?: ResolvedUrls;
}

export const ALLOWED_METHODS = 'GET, HEAD';

/**
 * Finds the endpoint of the request (@koa/router over the catalogue) and validates its query
 * before the cache and the route: an unknown path answers 404, another method than GET or
 * HEAD on a known path 405 with `Allow`, a bad query 400 naming every offending parameter.
 * On success the route reads the match with `matchedEndpointOf(ctx)` and the typed query with
 * `queryOf(ctx, name)`. (The router's own `allowedMethods()` answers OPTIONS with 200 and
 * unknown methods with 501; decisions.md wants 405 for both.) A URL that resolved once is
 * taken from `ResolvedUrls` without routing or validating it again.
 */
export function resolveEndpoint(options: ResolveEndpointOptions = {}): Middleware[] {
  const router = endpointRouter(options.basePath ?? '/api/v1');
  const resolved = options.resolved ?? new ResolvedUrls();
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
    const query = Object.freeze(parsed.query);
    adopt(ctx, resolved.remember(ctx.url, { endpoint: state.endpoint, query, path: ctx.path, querystring: ctx.querystring }));
    await next();
  };
  const resolve: Middleware = async (ctx, next) => {
    const state = apiState(ctx);
    const known = ctx.method === 'GET' || ctx.method === 'HEAD' ? (state.resolved ?? resolved.get(ctx.url)) : undefined;
    if (!known) {
      await router.routes(ctx, async () => {
        await validateQuery(ctx, next);
      });
      return;
    }
    adopt(ctx, known);
    await next();
  };
  return [resolve];
}

/** Leaves a resolution on the request for the cache and the route. */
export function adopt(ctx: { state: unknown }, known: ResolvedUrl): void {
  const state = apiState(ctx);
  state.resolved = known;
  state.endpoint = known.endpoint;
  state.query = known.query;
}
