import { describe, expect, it } from 'vitest';
import { boundedStalenessRead, type ReadTimers } from './boundedStalenessRead.ts';

/** A virtual clock with timers, and a database value whose reads take `readMs` and see the value at their start. */
function world(readMs: number) {
  let now = 1_000_000;
  let timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
  const db = { value: 0, reads: 0 };
  const clock: ReadTimers = {
    now: () => now,
    after: (ms, fn) => {
      const timer = { at: now + ms, fn, live: true };
      timers.push(timer);
      return () => void (timer.live = false);
    },
  };
  const read = (): Promise<number> => {
    db.reads += 1;
    const seen = db.value;
    return new Promise((resolve) => clock.after(readMs, () => resolve(seen)));
  };
  /** Advances the clock by `ms`, firing due timers in order and letting promises settle. */
  const advance = async (ms: number): Promise<void> => {
    const end = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      now = due.at;
      due.live = false;
      due.fn();
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
      timers = timers.filter((t) => t.live);
    }
    now = end;
  };
  return { db, read, clock, advance, now: () => now };
}

const options = { maxAgeMs: 50, refreshEveryMs: 45, idleAfterMs: 1000 };

describe('boundedStalenessRead', () => {
  it('makes a write visible to every caller arriving maxAgeMs after it, and callers under load never wait', async () => {
    const w = world(2);
    const reader = boundedStalenessRead(w.read, { ...options, timers: w.clock });
    const warm = reader.get(w.now());
    await w.advance(2);
    await warm;
    let waited = 0;
    let written = 0;
    for (let step = 0; step < 2000; step += 1) {
      // A caller every millisecond for two seconds; a write every 137 ms.
      if (step % 137 === 0) {
        w.db.value += 1;
        written = w.now();
      }
      const got = reader.get(w.now());
      if (got instanceof Promise) waited += 1;
      const value = await got;
      if (w.now() - written >= options.maxAgeMs) expect(value).toBe(w.db.value);
      await w.advance(1);
    }
    expect(waited).toBe(0);
    // One background read per 45 ms: about 22 per second, whatever the number of callers.
    expect(w.db.reads).toBeLessThanOrEqual(Math.ceil(2000 / 45) + 2);
    expect(w.db.reads).toBeGreaterThanOrEqual(Math.floor(2000 / 47));
    reader.stop();
  });

  it('starts reads sooner when they are slow, so callers under load still never wait, within 1000 / minRefreshMs reads per second', async () => {
    // A read takes 20 ms (a busy database, or an event loop that reads its reply late): started
    // every 45 ms, each would leave the value at hand older than 50 ms for 15 ms, and every caller
    // of those 15 ms would wait.
    const w = world(20);
    const reader = boundedStalenessRead(w.read, { ...options, minRefreshMs: 10, timers: w.clock });
    const warm = reader.get(w.now());
    await w.advance(20);
    await warm;
    let waited = 0;
    let written = 0;
    for (let step = 0; step < 2100; step += 1) {
      if (step % 137 === 0) {
        w.db.value += 1;
        written = w.now();
      }
      const got = reader.get(w.now());
      // The first 100 ms are the load's start: a caller may wait while the reads catch up with it.
      if (got instanceof Promise) {
        if (step >= 100) waited += 1;
        await w.advance(20);
      }
      const value = await got;
      if (w.now() - written >= options.maxAgeMs) expect(value).toBe(w.db.value);
      await w.advance(1);
    }
    expect(waited).toBe(0);
    expect(w.db.reads).toBeLessThanOrEqual(2100 / 10 + 2);
    reader.stop();
  });

  it('reads nothing while idle and makes the first caller after idleness wait for a new read', async () => {
    const w = world(3);
    const reader = boundedStalenessRead(w.read, { ...options, timers: w.clock });
    const warm = reader.get(w.now());
    await w.advance(5_000);
    await warm;
    const readsWhenIdle = w.db.reads;
    await w.advance(5_000);
    expect(w.db.reads).toBe(readsWhenIdle);
    w.db.value = 7;
    const got = reader.get(w.now());
    expect(got).toBeInstanceOf(Promise);
    await w.advance(3);
    expect(await got).toBe(7);
  });

  it('serves a caller from a read in flight that started within the bound, not from an older value', async () => {
    const w = world(30);
    const reader = boundedStalenessRead(w.read, { ...options, timers: w.clock });
    const first = reader.get(w.now());
    await w.advance(30);
    expect(await first).toBe(0);
    w.db.value = 1;
    // The background read starts at +45 and lasts 30 ms: a caller at +60 joins it rather than
    // taking the completed value read at 0 (60 ms old).
    await w.advance(30);
    const joined = reader.get(w.now());
    expect(joined).toBeInstanceOf(Promise);
    await w.advance(30);
    expect(await joined).toBe(1);
  });

  it('starts a read for a caller when the database is slower than the bound allows', async () => {
    const w = world(80);
    const reader = boundedStalenessRead(w.read, { ...options, timers: w.clock });
    const a = reader.get(w.now());
    await w.advance(60);
    w.db.value = 2;
    const b = reader.get(w.now());
    await w.advance(200);
    expect(await a).toBe(0);
    expect(await b).toBe(2);
    expect(reader.readsStarted).toBeGreaterThanOrEqual(2);
  });

  it('lets the next caller start a new read after a failed one', async () => {
    const w = world(1);
    let fail = true;
    const reader = boundedStalenessRead(() => (fail ? Promise.reject(new Error('down')) : w.read()), { ...options, timers: w.clock });
    await expect(reader.get(w.now())).rejects.toThrow('down');
    fail = false;
    const next = reader.get(w.now());
    await w.advance(1);
    expect(await next).toBe(0);
  });
});
