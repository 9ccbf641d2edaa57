import { describe, expect, it } from 'vitest';
import { isStalled } from './closeStalledResponses.ts';

describe('isStalled', () => {
  const TIMEOUT = 30_000;

  it('never counts a socket with nothing waiting, however long it is idle', () => {
    const progress = new Map();
    const socket = { writableLength: 0, bytesWritten: 100 };
    for (let at = 0; at <= 120_000; at += 1_000) expect(isStalled(socket, progress, at, TIMEOUT)).toBe(false);
    expect(progress.size).toBe(0);
  });

  it('counts a socket whose waiting bytes have not moved for the timeout', () => {
    const progress = new Map();
    const socket = { writableLength: 5_000_000, bytesWritten: 5_600_000 };
    expect(isStalled(socket, progress, 0, TIMEOUT)).toBe(false);
    expect(isStalled(socket, progress, TIMEOUT - 1, TIMEOUT)).toBe(false);
    expect(isStalled(socket, progress, TIMEOUT, TIMEOUT)).toBe(true);
  });

  it('starts the wait again whenever the kernel takes a byte: a slow reader of a long body is never cut', () => {
    const progress = new Map();
    const socket = { writableLength: 1_000_000, bytesWritten: 1_200_000 };
    for (let at = 0; at <= 10 * TIMEOUT; at += TIMEOUT - 1) {
      expect(isStalled(socket, progress, at, TIMEOUT)).toBe(false);
      // 1 KB taken, and the app wrote 1 KB more behind it: the waiting length is the same.
      socket.bytesWritten += 1_024;
    }
  });

  it('forgets a socket once its bytes are gone, so a later wait starts from then', () => {
    const progress = new Map();
    const socket = { writableLength: 10, bytesWritten: 20 };
    expect(isStalled(socket, progress, 0, TIMEOUT)).toBe(false);
    socket.writableLength = 0;
    expect(isStalled(socket, progress, TIMEOUT, TIMEOUT)).toBe(false);
    socket.writableLength = 10;
    socket.bytesWritten = 30;
    expect(isStalled(socket, progress, TIMEOUT + 1, TIMEOUT)).toBe(false);
    expect(isStalled(socket, progress, 2 * TIMEOUT, TIMEOUT)).toBe(false);
    expect(isStalled(socket, progress, 2 * TIMEOUT + 1, TIMEOUT)).toBe(true);
  });
});
