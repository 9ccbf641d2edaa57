import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { FallbackRateLimitStore } from '../api/http/fallbackRateLimitStore.ts';
import { MemoryRateLimitStore } from '../api/http/memoryRateLimitStore.ts';
import { RedisRateLimitStore } from '../api/http/redisRateLimitStore.ts';

/** One request against a limiter: allowed or not, what is left, seconds until budget frees. */
export type Consume = (key: string, nowMs: number) => Promise<{ allowed: boolean; remaining: number; resetSeconds: number }>;

export const LIMIT = 300;
export const WINDOW_SECONDS = 60;

// The part of rate-limiter-flexible's API the comparison uses (it is not a dependency: the
// bench loads it from where `--rlf` says it was installed).
interface RlfResult {
  readonly remainingPoints: number;
  readonly msBeforeNext: number;
}
interface RlfLimiter {
  consume(key: string, points?: number): Promise<RlfResult>;
}
interface RlfOptions {
  readonly points: number;
  readonly duration: number;
  readonly keyPrefix?: string;
  readonly storeClient?: Redis;
  readonly insuranceLimiter?: RlfLimiter;
}
export interface RlfModule {
  readonly RateLimiterMemory: new (options: RlfOptions) => RlfLimiter;
  readonly RateLimiterRedis: new (options: RlfOptions) => RlfLimiter;
}

/** rate-limiter-flexible from `<dir>/node_modules` (e.g. `npm install --no-save --prefix <dir> rate-limiter-flexible`). */
export function loadRlf(dir: string): RlfModule {
  const rlf: RlfModule = createRequire(resolve(dir, 'package.json'))('rate-limiter-flexible');
  return rlf;
}

/** A rate-limiter-flexible limiter as a Consume: a refusal rejects with its result, a store failure with an Error. */
export function rlfConsume(limiter: RlfLimiter): Consume {
  const decided = (allowed: boolean, res: RlfResult) => ({
    allowed,
    remaining: res.remainingPoints,
    resetSeconds: Math.ceil(res.msBeforeNext / 1000),
  });
  return (key) =>
    limiter.consume(key).then(
      (res) => decided(true, res),
      (refusal: unknown) => {
        if (refusal instanceof Error) throw refusal;
        return decided(false, refusal as RlfResult);
      },
    );
}

const request = (key: string, nowMs: number) => ({ key, nowMs, limit: LIMIT, windowSeconds: WINDOW_SECONDS });

export function oursInMemory(): { consume: Consume; store: MemoryRateLimitStore } {
  const store = new MemoryRateLimitStore({ limit: LIMIT, windowSeconds: WINDOW_SECONDS });
  return { store, consume: (key, nowMs) => Promise.resolve(store.consume(request(key, nowMs))) };
}

export function oursOnRedis(redis: Redis, keyPrefix: string): Consume {
  const store = new RedisRateLimitStore(redis, { keyPrefix });
  return (key, nowMs) => store.consume(request(key, nowMs));
}

/** Ours as an instance runs it with REDIS_URL set: Redis first, its own memory when Redis fails. */
export function oursWithFallback(redis: Redis, keyPrefix: string): Consume {
  const store = new FallbackRateLimitStore({
    primary: new RedisRateLimitStore(redis, { keyPrefix }),
    fallback: new MemoryRateLimitStore({ limit: LIMIT, windowSeconds: WINDOW_SECONDS }),
    logger: pino({ level: 'silent' }),
  });
  return (key, nowMs) => store.consume(request(key, nowMs));
}

export function rlfInMemory(rlf: RlfModule): Consume {
  return rlfConsume(new rlf.RateLimiterMemory({ points: LIMIT, duration: WINDOW_SECONDS }));
}

/** Its documented several-instance set-up: Redis, with an in-memory insurance limiter when Redis fails. */
export function rlfOnRedis(rlf: RlfModule, redis: Redis, keyPrefix: string, insured: boolean): Consume {
  const insuranceLimiter = insured ? new rlf.RateLimiterMemory({ points: LIMIT, duration: WINDOW_SECONDS }) : undefined;
  return rlfConsume(
    new rlf.RateLimiterRedis({
      storeClient: redis,
      points: LIMIT,
      duration: WINDOW_SECONDS,
      keyPrefix,
      ...(insuranceLimiter ? { insuranceLimiter } : {}),
    }),
  );
}
