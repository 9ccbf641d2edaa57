import { describe, expect, it } from 'vitest';
import { describeProgress } from './describeProgress.ts';

describe('describeProgress', () => {
  it('tells how far, how fast and how long still', () => {
    expect(describeProgress(120_000, 500_000, 24_000)).toBe('120,000 of 500,000 events (24 %), 5,000 events/s, about 76 s left');
  });
  it('has no rate before anything is applied, and is done at the end', () => {
    expect(describeProgress(0, 1_000, 0)).toBe('0 of 1,000 events (0 %), 0 events/s, time left unknown');
    expect(describeProgress(1_000, 1_000, 2_000)).toBe('1,000 of 1,000 events (100 %), 500 events/s, about 0 s left');
  });
});
