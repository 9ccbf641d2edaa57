import { describe, expect, it } from 'vitest';
import { restartBackoff } from './restartBackoff.ts';

describe('restartBackoff', () => {
  it('doubles each wait up to the cap', () => {
    const backoff = restartBackoff(1_000, 30_000);
    expect(Array.from({ length: 7 }, () => backoff.next())).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it('starts again from the first wait once a member has joined', () => {
    const backoff = restartBackoff(500, 4_000);
    backoff.next();
    backoff.next();
    backoff.succeeded();
    expect(backoff.next()).toBe(500);
  });
});
