import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rebuildProgressLines } from './rebuildProgressLines.ts';

describe('rebuildProgressLines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says how far, how fast and how long still during the replay, at most every 5 s, and each stage after it', () => {
    const lines: string[] = [];
    let clock = 0;
    const progress = rebuildProgressLines({ write: (line) => lines.push(line), now: () => clock });
    progress.replayed(0, 100_000);
    clock = 1_000;
    progress.replayed(10_000, 100_000);
    clock = 5_000;
    progress.replayed(50_000, 100_000);
    clock = 10_000;
    progress.replayed(100_000, 100_000);
    progress.replayed(100_000, 100_000);
    progress.stage('every event replayed; deriving the competitions');
    expect(lines).toEqual([
      'replaying the events topic: 0 of 100,000 events (0 %), 0 events/s, time left unknown',
      'replaying the events topic: 50,000 of 100,000 events (50 %), 10,000 events/s, about 5 s left',
      'replaying the events topic: 100,000 of 100,000 events (100 %), 10,000 events/s, about 0 s left',
      'every event replayed; deriving the competitions (10 s so far)',
    ]);
    progress.stop();
  });

  it('says a long stage goes on every 30 s with its time, and never the same line twice', () => {
    const lines: string[] = [];
    let clock = 0;
    const progress = rebuildProgressLines({ write: (line) => lines.push(line), now: () => clock });
    progress.stage('every document derived; finishing the indexes');
    vi.advanceTimersByTime(30_000);
    clock = 30_000;
    vi.advanceTimersByTime(30_000);
    progress.stage('every document derived; finishing the indexes');
    progress.stop();
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual([
      'every document derived; finishing the indexes (0 s so far)',
      'every document derived; finishing the indexes (30 s so far)',
    ]);
  });
});
