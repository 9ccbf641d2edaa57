import { describe, expect, it } from 'vitest';
import { recentReadiness } from './recentReadiness.ts';
import type { ReadinessCheck } from './startOpsServer.ts';

function counted(answer: () => Promise<{ ready: boolean; checks: Record<string, boolean> }>): {
  check: ReadinessCheck;
  calls: () => number;
} {
  let calls = 0;
  return {
    check: () => {
      calls += 1;
      return answer();
    },
    calls: () => calls,
  };
}

describe('recentReadiness', () => {
  it('runs one check for many concurrent callers, and none again until the answer is a second old', async () => {
    const clock = { now: 0 };
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { check, calls } = counted(async () => {
      await gate;
      return { ready: true, checks: { mongo: true } };
    });
    const recent = recentReadiness(check, { clock: () => clock.now });
    const waiting = Array.from({ length: 500 }, () => recent());
    release();
    expect(new Set(await Promise.all(waiting)).size).toBe(1);
    expect(calls()).toBe(1);
    clock.now = 999;
    await Promise.all(Array.from({ length: 500 }, () => recent()));
    expect(calls()).toBe(1);
    clock.now = 1000;
    expect(await recent()).toEqual({ ready: true, checks: { mongo: true } });
    expect(calls()).toBe(2);
  });

  it('serves a change of state once the remembered answer is a second old', async () => {
    const clock = { now: 0 };
    let up = true;
    const recent = recentReadiness(() => Promise.resolve({ ready: up, checks: { mongo: up } }), { clock: () => clock.now });
    expect((await recent()).ready).toBe(true);
    up = false;
    expect((await recent()).ready).toBe(true);
    clock.now = 1000;
    expect(await recent()).toEqual({ ready: false, checks: { mongo: false } });
  });

  it('answers not ready at its deadline when the check hangs, and when it throws', async () => {
    const clock = { now: 0 };
    const hung = counted(() => new Promise(() => undefined));
    const recent = recentReadiness(hung.check, { clock: () => clock.now, timeoutMs: 50 });
    expect(await Promise.all([recent(), recent(), recent()])).toEqual(Array(3).fill({ ready: false, checks: {} }));
    expect(hung.calls()).toBe(1);
    const failing = recentReadiness(() => Promise.reject(new Error('no server')), { clock: () => clock.now });
    expect(await failing()).toEqual({ ready: false, checks: {} });
    const throwing = recentReadiness(() => {
      throw new Error('sync');
    });
    expect(await throwing()).toEqual({ ready: false, checks: {} });
  });

  it('wraps a recent check only once, so two ports sharing it never age its answers twice', () => {
    const recent = recentReadiness(() => Promise.resolve({ ready: true, checks: {} }));
    expect(recentReadiness(recent)).toBe(recent);
  });
});
