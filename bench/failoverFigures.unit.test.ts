import { describe, expect, it } from 'vitest';
import { faultFigures } from './failoverFigures.ts';
import { spread } from './soakFigures.ts';

describe('faultFigures', () => {
  const events = [
    // Visible before the fault at 100: not the fault's.
    { partition: 0, sentAt: 10, visibleAt: 50 },
    // In flight at the fault, held up by it.
    { partition: 1, sentAt: 90, visibleAt: 2_100 },
    // After the fault: partition 0 served at once, partition 1 after the takeover.
    { partition: 0, sentAt: 150, visibleAt: 200 },
    { partition: 1, sentAt: 160, visibleAt: 2_100 },
    { partition: 1, sentAt: 2_200, visibleAt: 2_250 },
    // Never seen.
    { partition: 0, sentAt: 300 },
    // Sent in the window, held up by the next fault at 4,000: that one's.
    { partition: 0, sentAt: 3_900, visibleAt: 9_000 },
  ];

  it('takes the longest delay of the events that became visible from the fault until the next', () => {
    expect(faultFigures(events, 100, 4_000, 2).longestDelayMs).toBe(2_010);
    expect(faultFigures(events, 4_000, 10_000, 2).longestDelayMs).toBe(5_100);
  });

  it('times every partition until an event sent after the fault is visible on it', () => {
    expect(faultFigures(events, 100, 4_000, 2).allPartitionsMs).toBe(2_000);
  });

  it('gives Infinity when a partition had no event after the fault visible', () => {
    expect(faultFigures(events, 100, 4_000, 3).allPartitionsMs).toBe(Infinity);
  });
});

describe('spread', () => {
  it('gives min, median and max whatever the order', () => {
    expect(spread([7, 1, 4])).toEqual({ min: 1, median: 4, max: 7 });
    expect(spread([4, 1, 7, 2])).toEqual({ min: 1, median: 2, max: 7 });
  });

  it('is NaN for no values', () => {
    expect(spread([]).median).toBeNaN();
  });
});
