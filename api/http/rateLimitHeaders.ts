import type { RateLimitDecision } from './rateLimitStore.ts';

export interface RateLimitPolicy {
  readonly limit: number;
  readonly windowSeconds: number;
  /** Policy name in the IETF structured fields; default `default`. */
  readonly name?: string;
}

/**
 * The rate-limit headers of one response: the `X-RateLimit-*` trio and the IETF
 * draft-ietf-httpapi-ratelimit-headers fields `RateLimit-Policy: "default";q=300;w=60` and
 * `RateLimit: "default";r=<remaining>;t=<seconds until budget frees>`.
 */
export function rateLimitHeaders(decision: RateLimitDecision, policy: RateLimitPolicy): Record<string, string> {
  const name = JSON.stringify(policy.name ?? 'default');
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(policy.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Window': String(policy.windowSeconds),
    'RateLimit-Policy': `${name};q=${policy.limit};w=${policy.windowSeconds}`,
    RateLimit: `${name};r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.resetSeconds);
  return headers;
}
