import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MemoryRateLimitStore } from './memoryRateLimitStore.ts';

// What 100,000 distinct client IPs cost the in-memory limiter: heap plus typed-array backing
// stores, measured after a full GC (exposed at run time, so no `--expose-gc` flag is needed).

function exposeGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

function usedBytes(gc: () => void): number {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const CLIENTS = 100_000;
const T0 = 1_700_000_000_000;

describe('MemoryRateLimitStore memory', () => {
  it('keeps 100,000 distinct IPs under 50 MB and 200 bytes each', () => {
    const gc = exposeGc();
    const before = gc ? usedBytes(gc) : 0;
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < CLIENTS; i += 1) {
      // Half IPv4, half IPv6: the cost per client must not depend on the key's length.
      const key =
        i % 2 === 0
          ? `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`
          : `2001:db8:5e:${(i >>> 16).toString(16)}:7f00:1:${(i & 0xffff).toString(16)}:1`;
      store.consume({ key, nowMs: T0 + Math.floor(i / 10), limit: 300, windowSeconds: 60 });
    }
    expect(store.size).toBe(CLIENTS);
    const measured = gc ? usedBytes(gc) - before : undefined;
    // All per-client state lives in typed arrays, so without a GC their size is the figure.
    const bytes = measured ?? store.byteLength;
    const perClient = bytes / CLIENTS;
    console.info(
      `rate limiter, ${CLIENTS} IPs: ${(bytes / 1024 / 1024).toFixed(1)} MiB ${measured === undefined ? '(computed)' : '(measured after gc)'}, ` +
        `${perClient.toFixed(0)} bytes per IP (typed arrays ${(store.byteLength / CLIENTS).toFixed(0)})`,
    );
    expect(bytes).toBeLessThan(50 * 1024 * 1024);
    expect(perClient).toBeLessThanOrEqual(200);
    expect(store.consume({ key: '10.0.0.0', nowMs: T0, limit: 300, windowSeconds: 60 }).allowed).toBe(true);
  });
});
