import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ENDPOINTS, ENDPOINT_NAMES } from '../../schemas/api/endpoints.ts';
import type { EndpointDefinition, EndpointName } from '../../schemas/api/endpoints.ts';
import { ApiError } from './apiError.ts';
import { exceedsLength } from '../query/exceedsLength.ts';
import { quoteValue } from '../query/parameterLabel.ts';
import { apiState } from './requestState.ts';
import type { MatchedEndpoint } from './requestState.ts';

export interface EndpointRouter {
  /** Sets `matchedEndpointOf(ctx)` for a GET or HEAD on a catalogue path, then calls the next middleware. */
  readonly routes: Middleware;
  /** The endpoint a path names, whatever the method (metrics label requests refused before routing). */
  match(requestPath: string): MatchedEndpoint | undefined;
}

const routers = new Map<string, EndpointRouter>();

/**
 * @koa/router over the endpoint catalogue, one per base path. Case-sensitive and strict about
 * trailing slashes, as the reference's paths are; the base path itself, with or without its
 * slash, is the root document. Where two paths match (`/competitions/removals` and
 * `/competitions/{idOrSlug}`) the one with fewer parameters wins. A path parameter that does
 * not fit its schema (a club id that is not a uuid) is a 404, not a 400: it names no resource.
 */
export function endpointRouter(basePath: string): EndpointRouter {
  let built = routers.get(basePath);
  if (!built) {
    built = buildRouter(basePath);
    routers.set(basePath, built);
  }
  return built;
}

/** `endpointRouter(basePath).match(requestPath)`. */
export function matchEndpoint(requestPath: string, basePath: string): MatchedEndpoint | undefined {
  return endpointRouter(basePath).match(requestPath);
}

function buildRouter(basePath: string): EndpointRouter {
  const router = new Router({ strict: true, sensitive: true, exclusive: 'specificity' });
  for (const name of ENDPOINT_NAMES) {
    const definition = ENDPOINTS[name];
    for (const path of routerPaths(definition.path, basePath)) {
      router.get(name, path, async (ctx, next) => {
        const fit = fittingParams(definition, ctx.params);
        if (fit.tooLong) throw new ApiError('INVALID_REQUEST', 'A path parameter is invalid.', { details: [fit.tooLong] });
        if (!fit.params) throw new ApiError('NOT_FOUND', 'No resource at this path.');
        apiState(ctx).endpoint = { definition, params: fit.params };
        await next();
      });
    }
  }
  return {
    routes: router.routes() as Middleware,
    match(requestPath) {
      // The same choice as `exclusive: 'specificity'`: fewest parameters, first registered on a tie.
      const layers = router.match(requestPath, 'GET').pathAndMethod;
      const layer = layers.reduce<(typeof layers)[number] | undefined>(
        (best, candidate) => (best && best.paramNames.length <= candidate.paramNames.length ? best : candidate),
        undefined,
      );
      if (!layer) return undefined;
      const definition = ENDPOINTS[layer.name as EndpointName];
      const fit = fittingParams(definition, layer.params(requestPath, layer.captures(requestPath)));
      // An over-long parameter still names this endpoint (its 400, or a 405, is counted under it).
      if (fit.tooLong) return { definition, params: {} };
      return fit.params ? { definition, params: fit.params } : undefined;
    },
  };
}

/** The catalogue writes `{name}`; path-to-regexp 8 reads braces as optional groups and wants `:name`. */
function routerPaths(path: string, basePath: string): string[] {
  const routerPath = `${basePath}${path.replace(/\{(\w+)\}/g, ':$1')}`;
  return path === '/' ? [basePath, routerPath] : [routerPath];
}

/** Each path parameter's schema pattern, compiled once: the router checks them on every request. */
const PATTERNS = new Map(
  ENDPOINT_NAMES.flatMap((name) =>
    ENDPOINTS[name].pathParameters.flatMap((parameter) =>
      parameter.schema.pattern === undefined ? [] : [[parameter, new RegExp(parameter.schema.pattern)] as const],
    ),
  ),
);

/**
 * The path parameters when each fits its schema; neither (a 404) when one does not; the 400
 * detail of the first that is longer than its `maxLength` (a bound on what a client may send,
 * checked before the pattern, so it is never a slug nobody has).
 */
function fittingParams(
  definition: EndpointDefinition,
  params: Record<string, string>,
): { params?: Record<string, string>; tooLong?: string } {
  const fitting: Record<string, string> = {};
  for (const parameter of definition.pathParameters) {
    const value = params[parameter.name];
    if (value === undefined || value === '') return {};
    const max = parameter.schema.maxLength;
    if (max !== undefined && exceedsLength(value, max)) {
      return { tooLong: `${parameter.name}: must be at most ${max} characters long (got ${quoteValue(value)})` };
    }
    if (PATTERNS.get(parameter)?.test(value) === false) return {};
    fitting[parameter.name] = value;
  }
  return { params: fitting };
}
