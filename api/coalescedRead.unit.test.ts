import { describe, expect, it } from 'vitest';
import { coalescedRead } from './coalescedRead.ts';

/** A read whose every call is held until the test releases it, reading `state` when it STARTS. */
function harness() {
  const state = { value: 0, started: 0, running: 0, maxRunning: 0 };
  const pending: Array<() => void> = [];
  const scheduled: Array<() => void> = [];
  const read = (): Promise<number> => {
    state.started += 1;
    state.running += 1;
    state.maxRunning = Math.max(state.maxRunning, state.running);
    const seen = state.value;
    return new Promise((resolve) => {
      pending.push(() => {
        state.running -= 1;
        resolve(seen);
      });
    });
  };
  const next = coalescedRead(read, (fn) => scheduled.push(fn));
  const tick = async (): Promise<void> => {
    for (const fn of scheduled.splice(0)) fn();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const finish = async (): Promise<void> => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { state, next, tick, finish };
}

describe('coalescedRead', () => {
  it('shares one read among the callers that arrive before it fires', async () => {
    const h = harness();
    const calls = [h.next(), h.next(), h.next()];
    expect(h.state.started).toBe(0);
    await h.tick();
    expect(h.state.started).toBe(1);
    await h.finish();
    expect(await Promise.all(calls)).toEqual([0, 0, 0]);
  });

  it('never joins a read already in flight: a later caller sees a write made before it asked', async () => {
    const h = harness();
    const first = h.next();
    await h.tick();
    h.state.value = 1; // committed while the first read is in flight
    const second = h.next();
    const third = h.next();
    await h.tick();
    expect(h.state.started).toBe(1); // the second read waits for the first to finish
    await h.finish();
    expect(await first).toBe(0);
    expect(h.state.started).toBe(2);
    await h.finish();
    expect(await Promise.all([second, third])).toEqual([1, 1]);
    expect(h.state.maxRunning).toBe(1);
  });

  it('passes a failure to every joined caller and reads again afterwards', async () => {
    let fail = true;
    let reads = 0;
    const next = coalescedRead(() => {
      reads += 1;
      return fail ? Promise.reject(new Error('down')) : Promise.resolve(reads);
    });
    const joined = [next(), next()];
    await expect(Promise.all(joined)).rejects.toThrow('down');
    await expect(joined[1]).rejects.toThrow('down');
    fail = false;
    expect(await next()).toBe(2);
  });

  it('runs on setImmediate by default', async () => {
    let reads = 0;
    const next = coalescedRead(() => Promise.resolve(++reads));
    expect(await Promise.all([next(), next()])).toEqual([1, 1]);
    expect(await next()).toBe(2);
  });
});
