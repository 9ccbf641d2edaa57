import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createApp } from '../../api/createApp.ts';
import { sharedRateLimitStore, type SharedRateLimitStore } from '../../api/http/sharedRateLimitStore.ts';
import { redisInstance, type RedisInstance } from '../../infra/localRedis.ts';
import { RUN } from '../../infra/paths.ts';
import { loadConfig } from '../../services/config/index.ts';
import { uniqueName } from '../support/isolation.ts';
import { waitFor } from '../support/waitFor.ts';
import { freePort } from '../faults/support/freePort.ts';
import { openDatabase, PUBLIC_URL, serve, SITE_URL, type Database, type Reply } from './apiHarness.ts';

// Two API instances, each with its own HTTP port and its own store on one Redis, under
// concurrent load from one client IP (127.0.0.1), with the production budget of 300 requests per
// 60 s and a clock both instances share (injected, so the window is exercised in full without
// waiting a minute). Every request of a phase is sent at once, 32 in flight, alternating
// between the instances.

const T0 = Date.UTC(2026, 10, 23, 12, 0, 0) + 250;
const PATH = '/api/v1/competitions';

interface Instance {
  name: string;
  request(path: string): Promise<Reply>;
  metrics: Registry;
  logLines: Array<{ level: number; msg: string }>;
  shared: SharedRateLimitStore | undefined;
  close(): Promise<void>;
}

const clock = { now: T0 };
let database: Database;

beforeAll(async () => {
  database = await openDatabase('sharedratelimit');
});

afterAll(async () => {
  await database.drop();
});

/**
 * `commandTimeoutMs`: the production 100 ms by default. The exactness and restart tests pass a
 * longer one: they check that Redis counts atomically (and that a stopped Redis, whose commands
 * fail at once with the offline queue off, is one outage), and on a loaded 2-core machine a
 * 100 ms stall of this process sent requests to the in-memory fallback, which is the fallback
 * working, not a miscount. The paused-Redis test keeps 100 ms: the timeout is what it checks.
 */
async function startInstance(name: string, redisUrl: string | undefined, keyPrefix: string, commandTimeoutMs?: number): Promise<Instance> {
  const config = loadConfig({ API_PUBLIC_URL: PUBLIC_URL, SITE_URL, ...(redisUrl ? { REDIS_URL: redisUrl } : {}) });
  // The requirement's budget, not a test-sized one.
  expect([config.api.rateLimitMax, config.api.rateLimitWindowSeconds]).toEqual([300, 60]);
  const logLines: Instance['logLines'] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line !== '') logLines.push(JSON.parse(line) as Instance['logLines'][number]);
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const metrics = new Registry();
  const shared = config.api.redisUrl
    ? sharedRateLimitStore({
        url: config.api.redisUrl,
        limit: config.api.rateLimitMax,
        windowSeconds: config.api.rateLimitWindowSeconds,
        logger,
        metrics,
        keyPrefix,
        ...(commandTimeoutMs === undefined ? {} : { commandTimeoutMs }),
      })
    : undefined;
  if (shared) expect(await shared.ready(5000)).toBe(true);
  const app = createApp({
    config,
    logger,
    readiness: () => Promise.resolve({ ready: true, checks: {} }),
    db: database.db,
    clock: () => clock.now,
    metrics,
    ...(shared ? { rateLimitStore: shared.store } : {}),
  });
  const server = await serve(app);
  return {
    name,
    request: server.request,
    metrics,
    logLines,
    shared,
    close: async () => {
      await server.close();
      await shared?.close();
    },
  };
}

interface PhaseResult {
  admitted: number;
  refused: number;
  admittedBy: Record<string, number>;
  /** X-RateLimit-Remaining of every admitted response, sorted. */
  remaining: number[];
  /** Distinct Retry-After values of the refusals. */
  retryAfter: string[];
  replies: Reply[];
}

/** `count` requests at the current clock, `concurrency` in flight, alternating between instances. */
async function phase(instances: readonly Instance[], count: number, concurrency = 32): Promise<PhaseResult> {
  const replies: Array<{ instance: string; reply: Reply }> = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const instance = instances[next % instances.length] as Instance;
      next += 1;
      replies.push({ instance: instance.name, reply: await instance.request(PATH) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  const admittedBy: Record<string, number> = Object.fromEntries(instances.map((i) => [i.name, 0]));
  for (const { instance, reply } of replies) {
    expect([200, 429]).toContain(reply.status);
    if (reply.status === 200) admittedBy[instance] = (admittedBy[instance] ?? 0) + 1;
  }
  const ok = replies.filter((r) => r.reply.status === 200).map((r) => r.reply);
  const limited = replies.filter((r) => r.reply.status === 429).map((r) => r.reply);
  return {
    admitted: ok.length,
    refused: limited.length,
    admittedBy,
    remaining: ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b),
    retryAfter: [...new Set(limited.map((r) => r.headers.get('retry-after') ?? 'missing'))],
    replies: replies.map((r) => r.reply),
  };
}

/** The same headers on every answer, from whichever instance: the policy, and a refusal's Retry-After. */
function expectRateLimitHeaders(result: PhaseResult): void {
  for (const reply of result.replies) {
    expect(reply.headers.get('x-ratelimit-limit')).toBe('300');
    expect(reply.headers.get('x-ratelimit-window')).toBe('60');
    expect(reply.headers.get('ratelimit-policy')).toBe('"default";q=300;w=60');
    const remaining = reply.headers.get('x-ratelimit-remaining');
    expect(reply.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${remaining};t=\\d+$`));
    if (reply.status === 429) {
      expect(remaining).toBe('0');
      expect(reply.json.error.type).toBe('RATE_LIMIT_EXCEEDED');
      expect(reply.headers.get('ratelimit')).toBe(`"default";r=0;t=${reply.headers.get('retry-after')}`);
    }
  }
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function fallbackCount(instance: Instance): Promise<number> {
  return (await instance.metrics.getSingleMetric('api_rate_limit_fallback_total')?.get())?.values[0]?.value ?? 0;
}

const logged = (instance: Instance, pattern: RegExp): Array<{ level: number; msg: string }> =>
  instance.logLines.filter((l) => pattern.test(l.msg));

describe('one rate limit shared by two API instances on one Redis', () => {
  it('gives one IP exactly 300 requests per sliding 60 s window across both, under concurrent load', async () => {
    const keyPrefix = `${uniqueName('shared')}:`;
    const instances = [
      await startInstance('a', inject('redisUrl'), keyPrefix, 2_000),
      await startInstance('b', inject('redisUrl'), keyPrefix, 2_000),
    ];
    try {
      clock.now = T0;
      const first = await phase(instances, 100);
      expect(first.admitted).toBe(100);
      expect(first.remaining).toEqual(range(200, 299)); // each count handed out once: atomic

      clock.now = T0 + 30_000;
      const second = await phase(instances, 400);
      expect(second.admitted).toBe(200);
      expect(second.remaining).toEqual(range(0, 199));
      expect(second.retryAfter).toEqual(['30']); // second 0's requests leave at second 60

      clock.now = T0 + 59_749; // the last millisecond of second 59
      const full = await phase(instances, 50);
      expect(full.admitted).toBe(0);
      expect(full.retryAfter).toEqual(['1']);

      clock.now = T0 + 60_000; // second 0 has left the window: its 100 are free again
      const slid = await phase(instances, 150);
      expect(slid.admitted).toBe(100);
      expect(slid.remaining).toEqual(range(0, 99));
      expect(slid.retryAfter).toEqual(['30']);

      for (const result of [first, second, full, slid]) expectRateLimitHeaders(result);
      for (const instance of instances) expect(await fallbackCount(instance)).toBe(0);
      console.log(
        `shared limit, 2 instances, 700 requests in 4 phases: admitted in window [0 s, 60 s) ${first.admitted + second.admitted + full.admitted}` +
          ` (a ${first.admittedBy.a! + second.admittedBy.a!}, b ${first.admittedBy.b! + second.admittedBy.b!}), in (0 s, 60 s] ${second.admitted + full.admitted + slid.admitted}`,
      );
    } finally {
      for (const instance of instances) await instance.close();
    }
  });

  it('without Redis, each instance counts alone (the difference Redis makes)', async () => {
    const instances = [await startInstance('a', undefined, ''), await startInstance('b', undefined, '')];
    try {
      clock.now = T0 + 3_600_000;
      const result = await phase(instances, 700);
      expect(result.admitted).toBe(600);
      expect(result.admittedBy).toEqual({ a: 300, b: 300 });
      expectRateLimitHeaders(result);
    } finally {
      for (const instance of instances) await instance.close();
    }
  });
});

describe('a Redis restart and a paused Redis under two instances', () => {
  let redis: RedisInstance;
  let runDir: string;

  beforeAll(async () => {
    // A private server: this test kills and pauses it, never the shared one.
    runDir = join(RUN, uniqueName('redis-ratelimit-test'));
    redis = redisInstance({ port: await freePort(), runDir });
    await redis.start(() => undefined);
  });

  afterAll(async () => {
    redis.signal('SIGCONT');
    await redis.stop(5_000);
    rmSync(runDir, { recursive: true, force: true });
  });

  const recovered = async (instances: readonly Instance[]): Promise<void> => {
    await waitFor(
      () => {
        for (const instance of instances) expect(instance.shared?.redis.status).toBe('ready');
        return Promise.resolve();
      },
      20_000,
      100,
    );
    // Past the fallback's retry interval, one request per instance finds Redis again.
    await sleep(300);
  };

  it('falls back to each instance counting alone (still limited), logs once, counts it, and is exact again one window after', async () => {
    const keyPrefix = `${uniqueName('restart')}:`;
    const instances = [await startInstance('a', redis.url, keyPrefix, 2_000), await startInstance('b', redis.url, keyPrefix, 2_000)];
    const [a, b] = instances as [Instance, Instance];
    try {
      clock.now = T0;
      const before = await phase(instances, 200);
      expect(before.admitted).toBe(200);
      expect(before.admittedBy).toEqual({ a: 100, b: 100 });

      // Redis dies (SIGKILL: no goodbye on the connections) and stays down for a while.
      expect(redis.signal('SIGKILL')).toBe(true);
      await waitFor(() => Promise.resolve(expect(redis.isOurs()).toBe(false)), 10_000, 50);
      clock.now = T0 + 10_000;
      const during = await phase(instances, 600);
      // Each instance remembers its own 100 of the window and admits 200 more alone: limited,
      // never unlimited, never refused for want of Redis.
      expect(during.admittedBy).toEqual({ a: 200, b: 200 });
      expect(during.retryAfter).toEqual(['50']);
      expectRateLimitHeaders(during);
      expect([await fallbackCount(a), await fallbackCount(b)]).toEqual([300, 300]);
      for (const instance of instances) {
        expect(logged(instance, /^rate-limit store unreachable/)).toHaveLength(1);
        expect(logged(instance, /^rate-limit store unreachable/)[0]?.level).toBe(40); // warn
      }

      // Redis comes back empty (no persistence): the instances share one budget again at once.
      await redis.start(() => undefined);
      await recovered(instances);
      clock.now = T0 + 20_000;
      const probes = [await a.request(PATH), await b.request(PATH)];
      const after = await phase(instances, 398);
      expect(probes.map((r) => r.status)).toEqual([200, 200]);
      expect(after.admitted).toBe(298);
      expect(after.retryAfter).toEqual(['60']);
      expectRateLimitHeaders(after);
      expect([await fallbackCount(a), await fallbackCount(b)]).toEqual([300, 300]);
      for (const instance of instances) {
        expect(logged(instance, /^rate-limit store answers again/)).toHaveLength(1);
        expect(logged(instance, /^rate-limit store unreachable/)).toHaveLength(1);
      }

      // One window after Redis came back, nothing of the outage is left: exactly 300 again.
      clock.now = T0 + 80_000;
      const windowLater = await phase(instances, 600);
      expect(windowLater.admitted).toBe(300);
      expect(windowLater.remaining).toEqual(range(0, 299));
      expectRateLimitHeaders(windowLater);
      console.log(
        `Redis restart: before 200 admitted (shared); Redis down: ${during.admitted} admitted of 600 (a ${during.admittedBy.a}, b ${during.admittedBy.b}; fallback decisions a ${await fallbackCount(a)}, b ${await fallbackCount(b)});` +
          ` back (empty): ${probes.length + after.admitted} admitted of 400 (window holding the outage: ${before.admitted + during.admitted + probes.length + after.admitted});` +
          ` one window later: ${windowLater.admitted} admitted of 600`,
      );
    } finally {
      for (const instance of instances) await instance.close();
    }
  });

  it('decides in memory within the command timeout while Redis is paused, and shares again when it resumes', async () => {
    const keyPrefix = `${uniqueName('paused')}:`;
    const instances = [await startInstance('a', redis.url, keyPrefix), await startInstance('b', redis.url, keyPrefix)];
    const [a, b] = instances as [Instance, Instance];
    try {
      expect(redis.signal('SIGSTOP')).toBe(true);
      clock.now = T0 + 300_000;
      const started = performance.now();
      const paused = await phase(instances, 700);
      const elapsedMs = performance.now() - started;
      expect(paused.admittedBy).toEqual({ a: 300, b: 300 });
      expectRateLimitHeaders(paused);
      expect([await fallbackCount(a), await fallbackCount(b)]).toEqual([350, 350]);
      for (const instance of instances) expect(logged(instance, /^rate-limit store unreachable/)).toHaveLength(1);

      expect(redis.signal('SIGCONT')).toBe(true);
      await recovered(instances);
      // The commands that timed out while it was paused ran when it resumed, at second 300:
      // one window later they are gone and the budget is exact.
      clock.now = T0 + 400_000;
      const probes = [await a.request(PATH), await b.request(PATH)];
      const resumed = await phase(instances, 598);
      expect(probes.map((r) => r.status)).toEqual([200, 200]);
      expect(probes.length + resumed.admitted).toBe(300);
      for (const instance of instances) expect(logged(instance, /^rate-limit store answers again/)).toHaveLength(1);
      console.log(
        `Redis paused (SIGSTOP): 700 requests answered in ${Math.round(elapsedMs)} ms, ${paused.admitted} admitted (300 per instance); resumed: ${probes.length + resumed.admitted} of 600`,
      );
    } finally {
      redis.signal('SIGCONT');
      for (const instance of instances) await instance.close();
    }
  });
});
