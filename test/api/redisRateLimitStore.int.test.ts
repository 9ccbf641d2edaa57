import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inject } from 'vitest';
import { Redis } from 'ioredis';
import { MemoryRateLimitStore } from '../../api/http/memoryRateLimitStore.ts';
import { RedisRateLimitStore } from '../../api/http/redisRateLimitStore.ts';
import type { RateLimitDecision } from '../../api/http/rateLimitStore.ts';
import { uniqueName } from '../support/isolation.ts';

// The Redis store must decide exactly as the in-memory one for the same requests at the same
// instants: same second buckets, same remaining, same seconds until budget frees.

const T0 = 1_700_000_000_000;

interface Step {
  key: string;
  nowMs: number;
}

let redis: Redis;

beforeAll(() => {
  redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  await redis.quit();
});

async function decisionsOfBoth(
  steps: readonly Step[],
  limit: number,
  windowSeconds: number,
): Promise<{ memory: RateLimitDecision[]; redis: RateLimitDecision[] }> {
  const memoryStore = new MemoryRateLimitStore({ limit, windowSeconds });
  const redisStore = new RedisRateLimitStore(redis, { keyPrefix: `${uniqueName('rl')}:` });
  const memory: RateLimitDecision[] = [];
  const shared: RateLimitDecision[] = [];
  for (const step of steps) {
    const request = { ...step, limit, windowSeconds };
    memory.push(memoryStore.consume(request));
    shared.push(await redisStore.consume(request));
  }
  return { memory, redis: shared };
}

describe('RedisRateLimitStore decides as MemoryRateLimitStore', () => {
  it("on the memory store's own table of 300 per 60 s", async () => {
    const steps: Step[] = [];
    for (let i = 0; i < 300; i += 1) steps.push({ key: 'ip', nowMs: T0 + i * 10 });
    steps.push(
      { key: 'ip', nowMs: T0 + 3_000 },
      { key: 'ip', nowMs: T0 + 59_999 },
      { key: 'ip', nowMs: T0 + 60_000 },
      { key: 'ip', nowMs: T0 + 60_000 },
    );
    const { memory, redis: shared } = await decisionsOfBoth(steps, 300, 60);
    expect(shared).toEqual(memory);
    expect(shared.at(-4)).toEqual({ allowed: false, remaining: 0, resetSeconds: 57 });
    expect(shared.at(-3)).toEqual({ allowed: false, remaining: 0, resetSeconds: 1 });
    // Second 60: the 100 requests of second 0 left the window; the next to leave are second 1's.
    expect(shared.at(-2)).toEqual({ allowed: true, remaining: 99, resetSeconds: 1 });
    expect(shared.filter((d) => d.allowed)).toHaveLength(302);
  });

  it('frees budget second by second as the oldest counted second leaves', async () => {
    const at = (ms: number): Step => ({ key: 'ip', nowMs: T0 + ms });
    const steps = [at(0), at(10_000), at(20_500), at(30_000), at(59_999), at(60_000), at(60_001), at(70_000), at(3_600_000)];
    const { memory, redis: shared } = await decisionsOfBoth(steps, 3, 60);
    expect(shared).toEqual(memory);
    expect(shared.slice(3, 8)).toEqual([
      { allowed: false, remaining: 0, resetSeconds: 30 },
      { allowed: false, remaining: 0, resetSeconds: 1 },
      { allowed: true, remaining: 0, resetSeconds: 10 },
      { allowed: false, remaining: 0, resetSeconds: 10 },
      { allowed: true, remaining: 0, resetSeconds: 10 },
    ]);
  });

  const limitAndWindow = fc.record({ limit: fc.integer({ min: 1, max: 6 }), windowSeconds: fc.integer({ min: 3, max: 10 }) });
  const advanceMs = (windowSeconds: number): fc.Arbitrary<number> =>
    fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_500 }), fc.integer({ min: 0, max: windowSeconds * 2_000 }));

  it('for any sequence of clients and instants of a clock that never steps back', async () => {
    const scenario = limitAndWindow.chain(({ limit, windowSeconds }) =>
      fc.record({
        limit: fc.constant(limit),
        windowSeconds: fc.constant(windowSeconds),
        moves: fc.array(
          fc.record({ key: fc.constantFrom('198.51.100.1', '198.51.100.2', '2001:db8::3'), advanceMs: advanceMs(windowSeconds) }),
          { minLength: 1, maxLength: 80 },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(scenario, async ({ limit, windowSeconds, moves }) => {
        let now = T0 + 123;
        const steps = moves.map((move) => ({ key: move.key, nowMs: (now += move.advanceMs) }));
        const { memory, redis: shared } = await decisionsOfBoth(steps, limit, windowSeconds);
        expect(shared).toEqual(memory);
      }),
      { numRuns: 120 },
    );
  });

  it('for any sequence of one client whose instants step back by less than a window', async () => {
    // Unsynchronised instances send one client's requests with clocks a little apart. (With
    // several clients the memory store may sweep a client idle for a window by another client's
    // clock; if that client's clock then steps back, the memory store has forgotten counts that
    // Redis still holds, and Redis is the stricter of the two.)
    const scenario = limitAndWindow.chain(({ limit, windowSeconds }) =>
      fc.record({
        limit: fc.constant(limit),
        windowSeconds: fc.constant(windowSeconds),
        moves: fc.array(
          fc.record({
            advanceMs: advanceMs(windowSeconds),
            jitterMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: (windowSeconds - 1) * 1000 })),
          }),
          { minLength: 1, maxLength: 80 },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(scenario, async ({ limit, windowSeconds, moves }) => {
        let base = T0 + 123;
        const steps = moves.map((move) => ({ key: '203.0.113.7', nowMs: (base += move.advanceMs) - move.jitterMs }));
        const { memory, redis: shared } = await decisionsOfBoth(steps, limit, windowSeconds);
        expect(shared).toEqual(memory);
      }),
      { numRuns: 120 },
    );
  });

  it('keeps one budget per key across store objects (instances) and lets idle keys expire', async () => {
    const keyPrefix = `${uniqueName('rl')}:`;
    const first = new RedisRateLimitStore(redis, { keyPrefix });
    const second = new RedisRateLimitStore(redis, { keyPrefix });
    const request = { key: '203.0.113.9', nowMs: T0, limit: 2, windowSeconds: 5 };
    expect((await first.consume(request)).remaining).toBe(1);
    expect((await second.consume(request)).remaining).toBe(0);
    expect((await first.consume(request)).allowed).toBe(false);
    const ttl = await redis.pttl(`${keyPrefix}203.0.113.9`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
  });
});
