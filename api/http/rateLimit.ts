import type { Middleware } from 'koa';
import { ApiError } from './apiError.ts';
import { clientIp } from './clientIp.ts';
import { MemoryRateLimitStore } from './memoryRateLimitStore.ts';
import { rateLimitHeaders } from './rateLimitHeaders.ts';
import { renderError } from './renderError.ts';
import { loggerOf } from './requestState.ts';
import { takeRateDecision } from './earlyHit.ts';
import type { RateLimitDecision, RateLimitStore } from './rateLimitStore.ts';

export interface RateLimitOptions {
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** Default: a MemoryRateLimitStore built for `limit` and `windowSeconds`. */
  readonly store?: RateLimitStore;
  /** Requests per window; default 300. */
  readonly limit?: number;
  /** Sliding window in seconds; default 60. */
  readonly windowSeconds?: number;
}

/**
 * Counts every request that reaches it (cache hits and 304s included) against the client
 * IP's sliding window and sets the rate-limit headers on the response; past the budget it
 * answers 429 RATE_LIMIT_EXCEEDED with `Retry-After`. It sits outside the error middleware,
 * so it writes its 429 itself; a failing store lets the request through (logged), because
 * the limiter protects the service and must not take it down.
 */
export const RATE_LIMIT_DEFAULTS = { limit: 300, windowSeconds: 60 } as const;

export function rateLimit(options: RateLimitOptions): Middleware {
  const limit = options.limit ?? RATE_LIMIT_DEFAULTS.limit;
  const windowSeconds = options.windowSeconds ?? RATE_LIMIT_DEFAULTS.windowSeconds;
  const store = options.store ?? new MemoryRateLimitStore({ limit, windowSeconds });
  const policy = { limit, windowSeconds };

  return async function limitRate(ctx, next) {
    // ctx.ip honours app.proxy / app.maxIpsCount (the trusted proxies), set where the app is built.
    const key = clientIp(ctx.ip);
    let decision: RateLimitDecision;
    try {
      // The in-memory store decides at once: no promise to wait for on every request. A request
      // the early hit counted already and left here (over budget) is not counted twice.
      const pending = takeRateDecision(ctx.req) ?? store.consume({ key, nowMs: options.clock(), limit, windowSeconds });
      decision = pending instanceof Promise ? await pending : pending;
    } catch (err) {
      loggerOf(ctx)?.warn({ err }, 'rate-limit store failed; request let through');
      await next();
      return;
    }
    ctx.set(rateLimitHeaders(decision, policy));
    if (!decision.allowed) {
      // Retry-After is among the rate-limit headers already set above.
      const message = `Rate limit of ${limit} requests per ${windowSeconds} seconds exceeded; retry in ${decision.resetSeconds} s.`;
      renderError(ctx, new ApiError('RATE_LIMIT_EXCEEDED', message));
      return;
    }
    await next();
  };
}
