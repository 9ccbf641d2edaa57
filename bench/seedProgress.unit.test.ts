import { describe, expect, it } from 'vitest';
import { duration, progressLine, throttled } from './seedProgress.ts';

describe('progressLine', () => {
  it('says how far, how fast and about how long is left', () => {
    expect(progressLine('replayed', 500_000, 2_000_000, 100)).toBe(
      'replayed 500,000 of 2,000,000 events (25.0 %), 5,000 events/s, about 5 min 0 s left',
    );
  });

  it('leaves out the share and the time left without a total, and the time left before any rate', () => {
    expect(progressLine('published', 10_000, null, 4)).toBe('published 10,000 events, 2,500 events/s');
    expect(progressLine('replayed', 0, 100, 0)).toBe('replayed 0 of 100 events (0.0 %), 0 events/s');
  });
});

describe('duration', () => {
  it('gives seconds under a minute, then minutes and seconds', () => {
    expect(duration(42.4)).toBe('42 s');
    expect(duration(185)).toBe('3 min 5 s');
  });
});

describe('throttled', () => {
  it('prints at most once per interval, and always a final call', () => {
    let now = 0;
    const printed: number[] = [];
    const print = throttled(
      5000,
      () => now,
      (n: number) => printed.push(n),
    );
    print(false, 1);
    now = 4999;
    print(false, 2);
    now = 5000;
    print(false, 3);
    now = 5001;
    print(true, 4);
    expect(printed).toEqual([1, 3, 4]);
  });
});
