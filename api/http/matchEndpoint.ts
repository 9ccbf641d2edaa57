import { ENDPOINTS, ENDPOINT_NAMES } from '../../schemas/api/endpoints.ts';
import type { EndpointDefinition } from '../../schemas/api/endpoints.ts';
import type { MatchedEndpoint } from './requestState.ts';

type Segment = { literal: string } | { parameter: string; pattern: RegExp | undefined };

interface CompiledRoute {
  readonly definition: EndpointDefinition;
  readonly segments: readonly Segment[];
}

const ROUTES: readonly CompiledRoute[] = ENDPOINT_NAMES.map((name) => {
  const definition = ENDPOINTS[name];
  const segments = definition.path
    .split('/')
    .slice(1)
    .map((part): Segment => {
      const parameter = /^\{(.+)\}$/.exec(part)?.[1];
      if (parameter === undefined) return { literal: part };
      const pattern = definition.pathParameters.find((p) => p.name === parameter)?.schema.pattern;
      return { parameter, pattern: pattern === undefined ? undefined : new RegExp(pattern) };
    });
  return { definition, segments };
});

/**
 * Finds the endpoint of a request path (`ctx.path`, still percent-encoded) under the base
 * path. Path parameters are decoded; one that does not fit its schema (a club id that is not
 * a uuid) or cannot be decoded makes the path unknown. The base path itself is its root (`/`),
 * as a client types it.
 */
export function matchEndpoint(requestPath: string, basePath: string): MatchedEndpoint | undefined {
  const path = requestPath === basePath ? `${basePath}/` : requestPath;
  if (!path.startsWith(`${basePath}/`)) return undefined;
  const parts = path.slice(basePath.length).split('/').slice(1);
  for (const route of ROUTES) {
    const params = matchSegments(route.segments, parts);
    if (params) return { definition: route.definition, params };
  }
  return undefined;
}

function matchSegments(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    const part = parts[i] ?? '';
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined;
      continue;
    }
    const value = decodeSegment(part);
    if (value === undefined || value === '' || (segment.pattern && !segment.pattern.test(value))) return undefined;
    params[segment.parameter] = value;
  }
  return params;
}

function decodeSegment(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
