/** One request to count against a client's budget. */
export interface RateLimitRequest {
  readonly key: string;
  readonly nowMs: number;
  readonly limit: number;
  readonly windowSeconds: number;
}

export interface RateLimitDecision {
  /** False when the window already holds `limit` requests; a refused request is not counted. */
  readonly allowed: boolean;
  /** Requests left in the window after this one. */
  readonly remaining: number;
  /** Whole seconds until the oldest counted request leaves the window and budget frees up. */
  readonly resetSeconds: number;
}

/**
 * Where the sliding-window counts live. The in-memory store serves one API instance; a shared
 * store (Redis, …) implementing the same contract serves several.
 */
export interface RateLimitStore {
  consume(request: RateLimitRequest): RateLimitDecision | Promise<RateLimitDecision>;
}
