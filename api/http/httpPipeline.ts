import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { requestId } from './requestId.ts';
import { cors } from './cors.ts';
import { rateLimit, RATE_LIMIT_DEFAULTS } from './rateLimit.ts';
import type { RateLimitOptions } from './rateLimit.ts';
import { errorMiddleware } from './errorMiddleware.ts';
import { requestLineLimit } from './requestLineLimit.ts';
import { resolveEndpoint } from './resolveEndpoint.ts';
import type { ResolveEndpointOptions } from './resolveEndpoint.ts';
import { conditionalGet } from './conditionalGet.ts';
import { endpointHeaders } from './endpointHeaders.ts';
import { responseCache } from './responseCache.ts';
import { BodyCache } from './bodyCache.ts';
import { earlyHit, type EarlyHit, type EarlyHitOptions } from './earlyHit.ts';
import { MemoryRateLimitStore } from './memoryRateLimitStore.ts';
import { ResolvedUrls } from './resolvedUrls.ts';
import type { ResponseCacheOptions } from './responseCache.ts';
import { WorkGate, type WorkGateOptions } from './workGate.ts';

export interface HttpPipelineOptions {
  readonly logger?: Logger;
  readonly clock: () => number;
  readonly rateLimit?: Omit<RateLimitOptions, 'clock'>;
  readonly cache: Omit<ResponseCacheOptions, 'clock' | 'work'>;
  /** The bound on uncached work (misses, bypasses) and its queue; unbounded when absent. */
  readonly work?: Omit<WorkGateOptions, 'retryAfterSeconds'>;
  readonly endpoints?: ResolveEndpointOptions;
  /** `Retry-After` of a 503, seconds. */
  readonly retryAfterSeconds?: number;
  /** Run for a matched, validated request before the conditional GET and the cache (headers every response of it carries). */
  readonly beforeCache?: readonly Middleware[];
  /** What the hit answered before Koa needs from the app around the pipeline (earlyHit.ts). */
  readonly early?: Pick<EarlyHitOptions, 'dataHeaders' | 'answered'> & { readonly clientKey: EarlyHitOptions['rateLimit']['clientKey'] };
}

/** The pipeline's middlewares and, when `early` was given, the hit answered before Koa over the same cache, URLs and budget. */
export interface HttpFront {
  readonly middlewares: Middleware[];
  readonly earlyHit?: EarlyHit;
}

/**
 * The middlewares in their one correct order, to `app.use` before the routes:
 * request id → CORS → rate limit → error mapping → request-line limit → endpoint + query
 * validation → endpoint headers → (beforeCache) → ETag/304 → response cache → (routes).
 */
export function httpPipeline(options: HttpPipelineOptions): Middleware[] {
  return httpFront(options).middlewares;
}

/** httpPipeline, with the hit answered before Koa (earlyHit.ts) sharing its cache, resolved URLs and rate-limit store. */
export function httpFront(options: HttpPipelineOptions): HttpFront {
  const cache = options.cache.cache ?? new BodyCache(options.cache.maxBytes);
  // A slot frees within one request's time, so a refused client may retry at once.
  const work = options.work ? new WorkGate({ ...options.work, retryAfterSeconds: 1 }) : undefined;
  const resolved = new ResolvedUrls();
  const beforeCache = options.beforeCache ?? [];
  const policy = {
    limit: options.rateLimit?.limit ?? RATE_LIMIT_DEFAULTS.limit,
    windowSeconds: options.rateLimit?.windowSeconds ?? RATE_LIMIT_DEFAULTS.windowSeconds,
  };
  const store = options.rateLimit?.store ?? new MemoryRateLimitStore(policy);
  const middlewares = [
    requestId({ logger: options.logger }),
    cors(),
    rateLimit({ ...policy, store, clock: options.clock }),
    errorMiddleware({ logger: options.logger, retryAfterSeconds: options.retryAfterSeconds }),
    requestLineLimit(),
    ...resolveEndpoint({ ...options.endpoints, resolved }),
    endpointHeaders(),
    ...beforeCache,
    conditionalGet(),
    responseCache({ ...options.cache, cache, clock: options.clock, ...(work ? { work } : {}) }),
  ];
  if (!options.early) return { middlewares };
  const { getDataVersion } = options.cache;
  return {
    middlewares,
    earlyHit: earlyHit({
      resolved,
      cache,
      clock: options.clock,
      ...(options.cache.ttlSeconds ? { ttlSeconds: options.cache.ttlSeconds } : {}),
      dataVersion: getDataVersion,
      ...(options.early.dataHeaders ? { dataHeaders: options.early.dataHeaders } : {}),
      rateLimit: { store, policy, clientKey: options.early.clientKey },
      answered: options.early.answered,
    }),
  };
}
