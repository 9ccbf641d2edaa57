import type { Logger } from 'pino';
import type { EndpointDefinition, EndpointName } from '../../schemas/api/endpoints.ts';
import type { QueryByEndpoint } from '../../schemas/api/queryByEndpoint.ts';
import type { ResolvedUrl } from './resolvedUrls.ts';

// Typed access to what the middlewares leave on `ctx.state` for each other and for the route
// handlers (Koa types `ctx.state` as `any`).

export interface MatchedEndpoint {
  readonly definition: EndpointDefinition;
  /** Decoded path parameters, e.g. `{ idOrSlug: 'riga-open-2025' }`. */
  readonly params: Readonly<Record<string, string>>;
}

export interface ApiRequestState {
  requestId?: string;
  /** The logger a request's child logger derives from, bound on first use (see loggerOf). */
  baseLogger?: Logger;
  log?: Logger;
  endpoint?: MatchedEndpoint;
  query?: unknown;
  /** The resolution of the request target (endpoint, query, cache key), once routed and validated. */
  resolved?: ResolvedUrl;
}

interface HasState {
  state: unknown;
}

export function apiState(ctx: HasState): ApiRequestState {
  if (typeof ctx.state !== 'object' || ctx.state === null) ctx.state = {};
  return ctx.state as ApiRequestState;
}

/** The request id set by the `requestId` middleware (`'-'` before it ran). */
export function requestIdOf(ctx: HasState): string {
  return apiState(ctx).requestId ?? '-';
}

/**
 * The per-request pino child logger, bound to the request id. Made on first use: most requests
 * (every cache hit) log nothing but the request line, and a child per request was measurable.
 */
export function loggerOf(ctx: HasState): Logger | undefined {
  const state = apiState(ctx);
  if (!state.log && state.baseLogger) state.log = state.baseLogger.child({ requestId: state.requestId });
  return state.log;
}

export function matchedEndpointOf(ctx: HasState): MatchedEndpoint | undefined {
  return apiState(ctx).endpoint;
}

/** The validated query of the endpoint the route handles; throws when another endpoint matched. */
export function queryOf<E extends EndpointName>(ctx: HasState, endpoint: E): QueryByEndpoint[E] {
  const state = apiState(ctx);
  if (state.endpoint?.definition.name !== endpoint || state.query === undefined) {
    throw new TypeError(`No validated query for endpoint ${endpoint}; is resolveEndpoint mounted before the route?`);
  }
  return state.query as QueryByEndpoint[E];
}
