import { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Logger } from '../../services/logger.ts';
import { FallbackRateLimitStore } from './fallbackRateLimitStore.ts';
import { MemoryRateLimitStore } from './memoryRateLimitStore.ts';
import { RedisRateLimitStore } from './redisRateLimitStore.ts';

export interface SharedRateLimitStoreOptions {
  /** `redis://host:port` (REDIS_URL). */
  readonly url: string;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly logger: Logger;
  readonly metrics?: Registry;
  readonly keyPrefix?: string;
  /** A Redis command slower than this counts as a failure and the fallback decides. Default 100 ms. */
  readonly commandTimeoutMs?: number;
}

export interface SharedRateLimitStore {
  readonly store: FallbackRateLimitStore;
  readonly redis: Redis;
  /** Resolves once connected, or false after `timeoutMs` (requests are limited in memory meanwhile). */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The rate-limit store of an API instance among several: Redis for the shared budget, this
 * instance's memory when Redis does not answer. The client never queues a command while
 * disconnected and never retries one, so a request waits on Redis at most the command timeout;
 * it reconnects in the background (backoff capped at 1 s) for as long as the process lives.
 */
export function sharedRateLimitStore(options: SharedRateLimitStoreOptions): SharedRateLimitStore {
  const redis = new Redis(options.url, {
    commandTimeout: options.commandTimeoutMs ?? 100,
    connectTimeout: 1000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(100 * times, 1000),
    connectionName: 'federation-read-api',
  });
  // The outage is logged once by the fallback store; each reconnect attempt's error is noise.
  redis.on('error', (err: Error) => options.logger.debug({ err }, 'redis connection error'));
  const primary = new RedisRateLimitStore(redis, options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix });
  const fallback = new MemoryRateLimitStore({ limit: options.limit, windowSeconds: options.windowSeconds });
  const store = new FallbackRateLimitStore({
    primary,
    fallback,
    logger: options.logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  return {
    store,
    redis,
    async ready(timeoutMs) {
      if (redis.status === 'ready') return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          redis.off('ready', onReady);
          resolve(false);
        }, timeoutMs);
        const onReady = (): void => {
          clearTimeout(timer);
          resolve(true);
        };
        redis.once('ready', onReady);
      });
    },
    async close() {
      // QUIT needs a live connection; when Redis is down there is nothing to say goodbye to.
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
