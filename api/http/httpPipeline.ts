import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { requestId } from './requestId.ts';
import { cors } from './cors.ts';
import { rateLimit } from './rateLimit.ts';
import type { RateLimitOptions } from './rateLimit.ts';
import { errorMiddleware } from './errorMiddleware.ts';
import { requestLineLimit } from './requestLineLimit.ts';
import { resolveEndpoint } from './resolveEndpoint.ts';
import type { ResolveEndpointOptions } from './resolveEndpoint.ts';
import { conditionalGet } from './conditionalGet.ts';
import { endpointHeaders } from './endpointHeaders.ts';
import { responseCache } from './responseCache.ts';
import { BodyCache } from './bodyCache.ts';
import { cachedAnswer } from './cachedAnswer.ts';
import { ResolvedUrls } from './resolvedUrls.ts';
import { cacheEntryBytes, DEFAULT_ENTRY_MAX_BYTES, type ResponseCacheOptions } from './responseCache.ts';
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
}

/**
 * The middlewares in their one correct order, to `app.use` before the routes:
 * request id → CORS → rate limit → error mapping → cached answer of a URL validated before →
 * request-line limit → endpoint + query validation → endpoint headers → (beforeCache) → ETag/304 →
 * response cache → (routes).
 */
export function httpPipeline(options: HttpPipelineOptions): Middleware[] {
  const cache =
    options.cache.cache ?? new BodyCache(options.cache.maxBytes, cacheEntryBytes(options.cache.maxEntryBytes ?? DEFAULT_ENTRY_MAX_BYTES));
  // A slot frees within one request's time, so a refused client may retry at once.
  const work = options.work ? new WorkGate({ ...options.work, retryAfterSeconds: 1 }) : undefined;
  const resolved = new ResolvedUrls();
  const beforeCache = options.beforeCache ?? [];
  return [
    requestId({ logger: options.logger }),
    cors(),
    rateLimit({ ...options.rateLimit, clock: options.clock }),
    errorMiddleware({ logger: options.logger, retryAfterSeconds: options.retryAfterSeconds }),
    cachedAnswer({ ...options.cache, cache, resolved, beforeCache, clock: options.clock }),
    requestLineLimit(),
    ...resolveEndpoint({ ...options.endpoints, resolved }),
    endpointHeaders(),
    ...beforeCache,
    conditionalGet(),
    responseCache({ ...options.cache, cache, clock: options.clock, ...(work ? { work } : {}) }),
  ];
}
