import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../../services/logger.ts';
import type { MemoryRateLimitStore } from './memoryRateLimitStore.ts';
import type { RateLimitDecision, RateLimitRequest, RateLimitStore } from './rateLimitStore.ts';

export interface FallbackRateLimitStoreOptions {
  /** The shared store (Redis). */
  readonly primary: RateLimitStore;
  /** This instance's own count, deciding while the shared store does not answer. */
  readonly fallback: MemoryRateLimitStore;
  readonly logger: Pick<Logger, 'warn' | 'info'>;
  /** Registry of the operators' port; `api_rate_limit_fallback_total` is registered in it. */
  readonly metrics?: Registry;
  /** While the primary is down, one request per interval tries it; the others go to the fallback. Default 250 ms. */
  readonly retryIntervalMs?: number;
  /** Monotonic milliseconds for the retry interval. Default `performance.now`. */
  readonly monotonicClock?: () => number;
}

/**
 * The shared store first; when it fails (unreachable, timed out) this instance's in-memory count
 * decides, so a request is always limited and never refused for want of the shared store. The
 * memory store also counts every request the shared store decides (its own decision unused), so
 * at the start of an outage the instance still knows what it admitted in the last window and
 * stays within one budget by itself. One warning when an outage starts, one info line when the
 * shared store answers again; `api_rate_limit_fallback_total` counts the decisions the fallback
 * made. While down, only one request per retry interval waits on the shared store (a paused
 * server costs that request the command timeout), the rest are decided in memory at once.
 */
export class FallbackRateLimitStore implements RateLimitStore {
  readonly #options: FallbackRateLimitStoreOptions;
  readonly #retryIntervalMs: number;
  readonly #monotonicClock: () => number;
  readonly #fallbacks: Counter | undefined;
  #downSince: number | undefined;
  #lastAttempt = 0;
  #decidedInOutage = 0;

  constructor(options: FallbackRateLimitStoreOptions) {
    this.#options = options;
    this.#retryIntervalMs = options.retryIntervalMs ?? 250;
    this.#monotonicClock = options.monotonicClock ?? (() => performance.now());
    this.#fallbacks = options.metrics
      ? new Counter({
          name: 'api_rate_limit_fallback_total',
          help: "Rate-limit decisions made by the instance's in-memory count because the shared store (Redis) did not answer",
          registers: [options.metrics],
        })
      : undefined;
  }

  /** True while the shared store is considered down. */
  get degraded(): boolean {
    return this.#downSince !== undefined;
  }

  async consume(request: RateLimitRequest): Promise<RateLimitDecision> {
    const now = this.#monotonicClock();
    if (this.#downSince !== undefined && now - this.#lastAttempt < this.#retryIntervalMs) return this.#decideAlone(request);
    this.#lastAttempt = now;
    let decision: RateLimitDecision;
    try {
      decision = await this.#options.primary.consume(request);
    } catch (err) {
      if (this.#downSince === undefined) {
        this.#downSince = now;
        this.#decidedInOutage = 0;
        this.#options.logger.warn({ err }, 'rate-limit store unreachable; each instance limits alone in memory until it answers again');
      }
      return this.#decideAlone(request);
    }
    if (this.#downSince !== undefined) {
      const outageMs = Math.round(this.#monotonicClock() - this.#downSince);
      this.#options.logger.info(
        { outageMs, decidedInMemory: this.#decidedInOutage },
        'rate-limit store answers again; the limit is shared again',
      );
      this.#downSince = undefined;
    }
    this.#options.fallback.consume(request);
    return decision;
  }

  #decideAlone(request: RateLimitRequest): RateLimitDecision {
    this.#decidedInOutage += 1;
    this.#fallbacks?.inc();
    return this.#options.fallback.consume(request);
  }
}
