import type { Middleware } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';
import { matchEndpoint, matchedEndpointOf } from './http/index.ts';

/**
 * Prometheus metrics of the public app, served on the operators' port only: requests by route
 * and status, latency by route, cache outcomes and rate-limited requests. The route label is the
 * endpoint's name (bounded), never the raw path.
 */
export function httpMetrics(registry: Registry, basePath: string): Middleware {
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
  return async function measure(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      // Requests refused before routing (429, CORS preflight) still count under their route.
      const route = (matchedEndpointOf(ctx) ?? matchEndpoint(ctx.path, basePath))?.definition.name ?? 'unmatched';
      requests.inc({ route, method: ctx.method, status: String(ctx.status) });
      latency.observe({ route }, (performance.now() - started) / 1000);
      const outcome = ctx.response.get('X-Cache');
      if (outcome === 'HIT' || outcome === 'MISS' || outcome === 'BYPASS') cache.inc({ outcome });
      if (ctx.status === 429) limited.inc();
    }
  };
}
