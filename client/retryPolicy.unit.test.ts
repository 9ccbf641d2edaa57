import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, parseRetryAfter, retryDelay, retryPolicy } from './retryPolicy.ts';

const NOW = Date.parse('2026-11-28T10:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, a past date as 0', () => {
    expect(parseRetryAfter('19', NOW)).toBe(19_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('Sat, 28 Nov 2026 10:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sat, 28 Nov 2026 09:59:00 GMT', NOW)).toBe(0);
  });

  it('ignores an absent header and anything that is neither form', () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    for (const value of ['', '-5', '1.5', '1e3', 'soon']) expect(parseRetryAfter(value, NOW), JSON.stringify(value)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  const policy = { ...DEFAULT_RETRY, attempts: 4, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('waits what Retry-After asks, unless the attempts are spent or it asks past maxDelayMs', () => {
    expect(retryDelay(1, 700, policy, () => 0.5)).toBe(700);
    expect(retryDelay(1, 0, policy, () => 0.5)).toBe(0);
    expect(retryDelay(1, 1_001, policy, () => 0.5)).toBeUndefined();
    expect(retryDelay(4, 700, policy, () => 0.5)).toBeUndefined();
  });

  it('backs off exponentially without Retry-After, between half and all of the ceiling, capped', () => {
    expect([1, 2, 3].map((attempt) => retryDelay(attempt, undefined, policy, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((attempt) => retryDelay(attempt, undefined, policy, () => 0.999999))).toEqual([100, 200, 400]);
    const long = { ...policy, attempts: 10 };
    expect(retryDelay(9, undefined, long, () => 0.999999)).toBe(1_000);
  });

  it('never retries when the policy has one attempt', () => {
    expect(retryDelay(1, 0, retryPolicy(false), () => 0)).toBeUndefined();
    expect(retryDelay(1, undefined, retryPolicy({ attempts: 1 }), () => 0)).toBeUndefined();
  });
});

describe('retryPolicy', () => {
  it('fills the defaults and refuses a count of attempts below 1', () => {
    expect(retryPolicy(undefined)).toEqual(DEFAULT_RETRY);
    expect(retryPolicy({ attempts: 5 })).toEqual({ ...DEFAULT_RETRY, attempts: 5 });
    expect(() => retryPolicy({ attempts: 0 })).toThrow(RangeError);
    expect(() => retryPolicy({ attempts: 1.5 })).toThrow(RangeError);
  });
});
