import type { Middleware } from 'koa';
import { ApiError } from './apiError.ts';
import { matchEndpoint } from './matchEndpoint.ts';
import { apiState } from './requestState.ts';
import { parseQuery } from '../query/parseQuery.ts';

export interface ResolveEndpointOptions {
  /** Where the API is mounted; default `/api/v1`. */
  readonly basePath?: string;
  /** Exact paths outside the catalogue that pass through untouched (e.g. `/health`, `/metrics`). */
  readonly passThrough?: readonly string[];
}

export const ALLOWED_METHODS = 'GET, HEAD';

/**
 * Finds the endpoint of the request and validates its query before the cache and the route:
 * an unknown path answers 404, another method than GET or HEAD 405 with `Allow`, a bad
 * query 400 naming every offending parameter. On success the route reads the match with
 * `matchedEndpointOf(ctx)` and the typed query with `queryOf(ctx, name)`.
 */
export function resolveEndpoint(options: ResolveEndpointOptions = {}): Middleware {
  const basePath = options.basePath ?? '/api/v1';
  const passThrough = new Set(options.passThrough ?? []);
  return async function resolve(ctx, next) {
    const matched = matchEndpoint(ctx.path, basePath);
    if (!matched) {
      if (passThrough.has(ctx.path)) {
        await next();
        return;
      }
      throw new ApiError('NOT_FOUND', 'No resource at this path.');
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new ApiError('METHOD_NOT_ALLOWED', `Method ${ctx.method} is not allowed; use GET or HEAD.`, {
        headers: { Allow: ALLOWED_METHODS },
      });
    }
    const parsed = parseQuery(matched.definition.name, ctx.querystring);
    if (!parsed.ok) {
      throw new ApiError('INVALID_REQUEST', 'One or more query parameters are invalid.', { details: parsed.details });
    }
    const state = apiState(ctx);
    state.endpoint = matched;
    state.query = parsed.query;
    await next();
  };
}
