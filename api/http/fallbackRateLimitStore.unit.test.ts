import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { FallbackRateLimitStore } from './fallbackRateLimitStore.ts';
import { MemoryRateLimitStore } from './memoryRateLimitStore.ts';
import type { RateLimitDecision, RateLimitRequest, RateLimitStore } from './rateLimitStore.ts';

const T0 = 1_700_000_000_000;

/** A shared store that can be switched off; when on, it decides like a memory store of its own. */
class SwitchableStore implements RateLimitStore {
  up = true;
  calls = 0;
  readonly #inner = new MemoryRateLimitStore();
  async consume(request: RateLimitRequest): Promise<RateLimitDecision> {
    this.calls += 1;
    await Promise.resolve();
    if (!this.up) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    return this.#inner.consume(request);
  }
}

function rig(options: { retryIntervalMs?: number } = {}) {
  const primary = new SwitchableStore();
  const lines: { level: string; msg: string }[] = [];
  const logger = {
    warn: (_obj: unknown, msg?: string) => void lines.push({ level: 'warn', msg: msg ?? '' }),
    info: (_obj: unknown, msg?: string) => void lines.push({ level: 'info', msg: msg ?? '' }),
  };
  const metrics = new Registry();
  let monotonic = 0;
  const store = new FallbackRateLimitStore({
    primary,
    fallback: new MemoryRateLimitStore(),
    logger,
    metrics,
    retryIntervalMs: options.retryIntervalMs ?? 0,
    monotonicClock: () => monotonic,
  });
  const fallbacks = async (): Promise<number> =>
    (await metrics.getSingleMetric('api_rate_limit_fallback_total')?.get())?.values[0]?.value ?? 0;
  const consume = (nowMs: number, key = '203.0.113.7') => store.consume({ key, nowMs, limit: 300, windowSeconds: 60 });
  const advance = (ms: number): void => void (monotonic += ms);
  return { primary, lines, store, fallbacks, consume, advance };
}

describe('FallbackRateLimitStore', () => {
  it('lets the shared store decide while it answers, and counts nothing as a fallback', async () => {
    const { consume, fallbacks, lines } = rig();
    for (let i = 0; i < 300; i += 1) expect((await consume(T0 + i)).allowed).toBe(true);
    expect(await consume(T0 + 500)).toEqual({ allowed: false, remaining: 0, resetSeconds: 60 });
    expect(await fallbacks()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('still limits when the shared store fails: the instance counts alone, from what it already admitted', async () => {
    const { primary, consume, fallbacks, store } = rig();
    for (let i = 0; i < 200; i += 1) await consume(T0);
    primary.up = false;
    const decisions = [];
    for (let i = 0; i < 150; i += 1) decisions.push(await consume(T0 + 1000));
    // 200 admitted before the outage are remembered: 100 more, then 429s. Never unlimited.
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    expect(decisions.at(-1)).toEqual({ allowed: false, remaining: 0, resetSeconds: 59 });
    expect(await fallbacks()).toBe(150);
    expect(store.degraded).toBe(true);
  });

  it('logs one warning per outage and one info line when the shared store answers again', async () => {
    const { primary, consume, lines, store } = rig();
    await consume(T0);
    primary.up = false;
    for (let i = 0; i < 20; i += 1) await consume(T0 + i);
    primary.up = true;
    await consume(T0 + 100);
    await consume(T0 + 200);
    expect(store.degraded).toBe(false);
    primary.up = false;
    await consume(T0 + 300);
    await consume(T0 + 400);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info', 'warn']);
    expect(lines[0]?.msg).toMatch(/unreachable/);
    expect(lines[1]?.msg).toMatch(/answers again/);
  });

  it('while down, tries the shared store once per retry interval and decides the rest in memory at once', async () => {
    const { primary, consume, advance, fallbacks } = rig({ retryIntervalMs: 250 });
    primary.up = false;
    await consume(T0);
    expect(primary.calls).toBe(1);
    for (let i = 0; i < 10; i += 1) {
      advance(20);
      await consume(T0);
    }
    expect(primary.calls).toBe(1);
    advance(60);
    primary.up = true;
    await consume(T0);
    expect(primary.calls).toBe(2);
    expect(await fallbacks()).toBe(11);
  });

  it('keeps the budgets of clients apart in the fallback too', async () => {
    const { primary, consume } = rig();
    primary.up = false;
    for (let i = 0; i < 300; i += 1) await consume(T0, 'a');
    expect((await consume(T0, 'a')).allowed).toBe(false);
    expect((await consume(T0, 'b')).allowed).toBe(true);
  });
});
