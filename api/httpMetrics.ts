import type { Middleware } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';
import { matchEndpoint, matchedEndpointOf } from './http/index.ts';

/** Records one request's metrics (also for a hit answered before Koa: earlyHit.ts). */
export type RecordRequest = (request: {
  route: string;
  method: string;
  status: number;
  seconds: number;
  cache: string | undefined;
}) => void;

const RECORDERS = new WeakMap<Registry, RecordRequest>();

/** The request metrics of `registry`, registered once: requests by route and status, latency, cache outcomes, 429s. */
export function requestMetrics(registry: Registry): RecordRequest {
  const known = RECORDERS.get(registry);
  if (known) return known;
  const registers = [registry];
  const requests = new Counter({
    name: 'api_requests_total',
    help: 'Requests by route and status',
    labelNames: ['route', 'method', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'api_request_duration_seconds',
    help: 'Time from request to response, by route',
    labelNames: ['route'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const cache = new Counter({
    name: 'api_cache_total',
    help: 'Response cache outcomes (HIT, MISS, BYPASS)',
    labelNames: ['outcome'],
    registers,
  });
  const limited = new Counter({ name: 'api_rate_limited_total', help: 'Requests refused with 429', registers });
  const record: RecordRequest = ({ route, method, status, seconds, cache: outcome }) => {
    requests.inc({ route, method, status: String(status) });
    latency.observe({ route }, seconds);
    if (outcome === 'HIT' || outcome === 'MISS' || outcome === 'BYPASS') cache.inc({ outcome });
    if (status === 429) limited.inc();
  };
  RECORDERS.set(registry, record);
  return record;
}

/**
 * Prometheus metrics of the public app, served on the operators' port only: requests by route
 * and status, latency by route, cache outcomes and rate-limited requests. The route label is the
 * endpoint's name (bounded), never the raw path.
 */
export function httpMetrics(registry: Registry, basePath: string): Middleware {
  const record = requestMetrics(registry);
  return async function measure(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      // Requests refused before routing (429, CORS preflight) still count under their route.
      const route = (matchedEndpointOf(ctx) ?? matchEndpoint(ctx.path, basePath))?.definition.name ?? 'unmatched';
      const outcome: unknown = ctx.response.get('X-Cache');
      record({
        route,
        method: ctx.method,
        status: ctx.status,
        seconds: (performance.now() - started) / 1000,
        cache: typeof outcome === 'string' ? outcome : undefined,
      });
    }
  };
}
