/** When and how long to wait before trying a request again. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 never retries). */
  attempts?: number;
  /** Statuses worth another attempt (default 429 and 503, the two the API sends `Retry-After` with). */
  statuses?: readonly number[];
  /** First backoff when the response names no `Retry-After`, doubled each attempt (default 500 ms). */
  baseDelayMs?: number;
  /** Longest wait; a `Retry-After` past it is not waited for: the response is returned (default 30 s). */
  maxDelayMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, statuses: [429, 503], baseDelayMs: 500, maxDelayMs: 30_000 };

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, attempts: 1 };
  const policy = { ...DEFAULT_RETRY, ...options };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1) throw new RangeError('retry.attempts must be an integer of at least 1');
  return policy;
}

/**
 * `Retry-After` in milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 10.2.3); a
 * date in the past is 0. Undefined when the header is absent or neither form.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before attempt `attempt + 1` (attempts count from 1), or undefined when there
 * is none: the attempts are spent, or the server asks for longer than `maxDelayMs`. The server's
 * `Retry-After` wins; without it, exponential backoff with jitter (`random` in [0, 1)) so that
 * clients refused together do not come back together.
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (attempt >= policy.attempts) return undefined;
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
