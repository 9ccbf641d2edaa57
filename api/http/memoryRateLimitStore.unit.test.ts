import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from './memoryRateLimitStore.ts';

const T0 = 1_700_000_000_000; // an epoch instant on a whole second

function consumer(store: MemoryRateLimitStore, key = '203.0.113.7') {
  return (nowMs: number) => store.consume({ key, nowMs, limit: store.limit, windowSeconds: store.windowSeconds });
}

describe('MemoryRateLimitStore: sliding window exact to the second', () => {
  it('allows 300 requests in 60 seconds and refuses the 301st', () => {
    const consume = consumer(new MemoryRateLimitStore());
    for (let i = 0; i < 300; i += 1) {
      const decision = consume(T0 + i * 10);
      expect(decision).toMatchObject({ allowed: true, remaining: 299 - i });
    }
    expect(consume(T0 + 3_000)).toEqual({ allowed: false, remaining: 0, resetSeconds: 57 });
  });

  it('frees budget when the oldest counted second leaves the window, not at a fixed reset', () => {
    const consume = consumer(new MemoryRateLimitStore({ limit: 3, windowSeconds: 60 }));
    consume(T0); // second 0
    consume(T0 + 10_000); // second 10
    consume(T0 + 20_500); // second 20
    expect(consume(T0 + 30_000)).toEqual({ allowed: false, remaining: 0, resetSeconds: 30 });
    expect(consume(T0 + 59_999)).toEqual({ allowed: false, remaining: 0, resetSeconds: 1 });
    // At second 60 the request of second 0 has left: one slot free, next to free is second 10.
    expect(consume(T0 + 60_000)).toEqual({ allowed: true, remaining: 0, resetSeconds: 10 });
    expect(consume(T0 + 60_001)).toEqual({ allowed: false, remaining: 0, resetSeconds: 10 });
    expect(consume(T0 + 70_000)).toEqual({ allowed: true, remaining: 0, resetSeconds: 10 });
  });

  it('does not count refused requests', () => {
    const consume = consumer(new MemoryRateLimitStore({ limit: 1, windowSeconds: 10 }));
    expect(consume(T0).allowed).toBe(true);
    for (let s = 1; s < 10; s += 1) expect(consume(T0 + s * 1000).allowed).toBe(false);
    expect(consume(T0 + 10_000)).toEqual({ allowed: true, remaining: 0, resetSeconds: 10 });
  });

  it('starts afresh after a whole idle window', () => {
    const consume = consumer(new MemoryRateLimitStore({ limit: 2, windowSeconds: 60 }));
    consume(T0);
    consume(T0);
    expect(consume(T0 + 59_000).allowed).toBe(false);
    expect(consume(T0 + 3_600_000)).toEqual({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it('counts clients separately', () => {
    const store = new MemoryRateLimitStore({ limit: 1, windowSeconds: 60 });
    expect(consumer(store, 'a')(T0).allowed).toBe(true);
    expect(consumer(store, 'a')(T0).allowed).toBe(false);
    expect(consumer(store, 'b')(T0).allowed).toBe(true);
  });

  it('tolerates a clock that steps back and a clock near the epoch', () => {
    const consume = consumer(new MemoryRateLimitStore({ limit: 3, windowSeconds: 60 }));
    consume(5_000);
    expect(consume(1_000)).toMatchObject({ allowed: true, remaining: 1 });
    expect(consume(2_000)).toEqual({ allowed: true, remaining: 0, resetSeconds: 60 });
    expect(consume(64_999)).toMatchObject({ allowed: false, resetSeconds: 1 });
  });

  it('refuses a request for another policy than it was built for', () => {
    const store = new MemoryRateLimitStore({ limit: 300, windowSeconds: 60 });
    expect(() => store.consume({ key: 'a', nowMs: T0, limit: 100, windowSeconds: 60 })).toThrow(RangeError);
  });
});

describe('MemoryRateLimitStore: bounded memory', () => {
  it('evicts clients idle for a whole window and reuses their slots', () => {
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 2_000; i += 1) consumer(store, `10.0.${i >> 8}.${i & 255}`)(T0);
    expect(store.size).toBe(2_000);
    const bytes = store.byteLength;
    expect(store.sweep(T0 + 59_000)).toBe(0);
    expect(store.sweep(T0 + 60_000)).toBe(2_000);
    expect(store.size).toBe(0);
    for (let i = 0; i < 2_000; i += 1) consumer(store, `10.1.${i >> 8}.${i & 255}`)(T0 + 61_000);
    expect(store.byteLength).toBe(bytes);
  });

  it('sweeps by itself when a new client arrives a window after the last sweep', () => {
    const store = new MemoryRateLimitStore();
    consumer(store, 'old')(T0);
    consumer(store, 'new')(T0 + 120_000);
    expect(store.size).toBe(1);
  });

  it('a reused slot starts with empty counters', () => {
    const store = new MemoryRateLimitStore({ limit: 2, windowSeconds: 60 });
    consumer(store, 'a')(T0);
    consumer(store, 'a')(T0 + 30_000);
    store.sweep(T0 + 90_000);
    expect(consumer(store, 'b')(T0 + 90_000)).toEqual({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it('counts clients beyond maxClients in shared slots instead of growing or letting them pass', () => {
    const store = new MemoryRateLimitStore({ limit: 1, maxClients: 2 });
    consumer(store, 'a')(T0);
    consumer(store, 'b')(T0);
    expect(consumer(store, 'c')(T0).allowed).toBe(true);
    expect(consumer(store, 'c')(T0).allowed).toBe(false);
    expect(store.size).toBe(2);
    const bytes = store.byteLength;
    // A flood of new addresses shares 1024 slots of budget 1: at most 1024 of them pass.
    const passed = Array.from({ length: 5000 }, (_, i) => consumer(store, `2001:db8:${i}::`)(T0 + 1000)).filter((d) => d.allowed);
    expect(passed.length).toBeGreaterThan(0);
    expect(passed.length).toBeLessThanOrEqual(1024);
    expect(store.byteLength).toBe(bytes);
    expect(store.size).toBe(2);
  });

  it('frees a shared slot budget as its window moves, like any other', () => {
    const store = new MemoryRateLimitStore({ limit: 1, windowSeconds: 2, maxClients: 1 });
    consumer(store, 'a')(T0);
    expect(consumer(store, 'c')(T0).allowed).toBe(true);
    expect(consumer(store, 'c')(T0 + 1000).allowed).toBe(false);
    expect(consumer(store, 'c')(T0 + 2000).allowed).toBe(true);
  });
});
