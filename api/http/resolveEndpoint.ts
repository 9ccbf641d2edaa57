import type { Middleware } from 'koa';
import { ApiError } from './apiError.ts';
import { endpointRouter } from './endpointRouter.ts';
import { apiState } from './requestState.ts';
import { parseQuery } from '../query/parseQuery.ts';

export interface ResolveEndpointOptions {
  /** Where the API is mounted; default `/api/v1`. */
  readonly basePath?: string;
}

export const ALLOWED_METHODS = 'GET, HEAD';

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
    state.query = parsed.query;
    await next();
  };
  return [router.routes, validateQuery];
}
