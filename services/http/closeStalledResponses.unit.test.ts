import { describe, expect, it } from 'vitest';
import { isStalled, type WriteCounters } from './closeStalledResponses.ts';

describe('isStalled', () => {
  const TIMEOUT = 30_000;
  const socket = {};
  type Progress = Parameters<typeof isStalled>[2];
  const stalled = (counters: WriteCounters, progress: Progress, at: number): boolean => isStalled(socket, counters, progress, at, TIMEOUT);

  it('never counts a socket with nothing waiting, however long it is idle', () => {
    const progress: Progress = new Map();
    for (let at = 0; at <= 120_000; at += 1_000) expect(stalled({ writableLength: 0, bytesWritten: 100 }, progress, at)).toBe(false);
    expect(progress.size).toBe(0);
  });

  it('counts a socket whose waiting bytes have not moved for the timeout', () => {
    const progress: Progress = new Map();
    const counters = { writableLength: 5_000_000, bytesWritten: 5_000_000, queued: 1_000_000 };
    expect(stalled(counters, progress, 0)).toBe(false);
    expect(stalled(counters, progress, TIMEOUT - 1)).toBe(false);
    expect(stalled(counters, progress, TIMEOUT)).toBe(true);
  });

  it('starts the wait again whenever the kernel takes a byte: a slow reader of a long body is never cut', () => {
    const progress: Progress = new Map();
    // Streamed: writes complete one after another, and the app writes as much again behind them.
    const streamed = { writableLength: 1_000_000, bytesWritten: 1_200_000 };
    for (let at = 0; at <= 10 * TIMEOUT; at += TIMEOUT - 1) {
      expect(stalled(streamed, progress, at)).toBe(false);
      streamed.bytesWritten += 1_024;
    }
    // One large write: only libuv's queue shows the kernel taking its bytes.
    progress.clear();
    const whole = { writableLength: 16_000_000, bytesWritten: 16_000_000, queued: 12_000_000 };
    for (let at = 0; at <= 10 * TIMEOUT; at += TIMEOUT - 1) {
      expect(stalled(whole, progress, at)).toBe(false);
      whole.queued -= 1_024;
    }
  });

  it('forgets a socket once its bytes are gone, so a later wait starts from then', () => {
    const progress: Progress = new Map();
    const counters = { writableLength: 10, bytesWritten: 20 };
    expect(stalled(counters, progress, 0)).toBe(false);
    expect(stalled({ ...counters, writableLength: 0 }, progress, TIMEOUT)).toBe(false);
    const later = { writableLength: 10, bytesWritten: 30 };
    expect(stalled(later, progress, TIMEOUT + 1)).toBe(false);
    expect(stalled(later, progress, 2 * TIMEOUT)).toBe(false);
    expect(stalled(later, progress, 2 * TIMEOUT + 1)).toBe(true);
  });
});
