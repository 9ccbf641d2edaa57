import { describe, expect, it } from 'vitest';
import Koa from 'koa';
import { rateLimit } from './rateLimit.ts';
import { clientIp, trustProxies } from './clientIp.ts';
import { rateLimitHeaders } from './rateLimitHeaders.ts';
import { ApiError } from './apiError.ts';
import { errorMiddleware } from './errorMiddleware.ts';
import type { RateLimitStore } from './rateLimitStore.ts';
import { send } from './harness.test.ts';

const T0 = 1_700_000_000_000;

function appWith(
  options: Parameters<typeof rateLimit>[0] & { trustedProxyCount?: number },
  route: Koa.Middleware = (ctx) => (ctx.body = { ok: true }),
): Koa {
  const app = new Koa();
  app.silent = true;
  trustProxies(app, options.trustedProxyCount ?? 0);
  app.use(rateLimit(options));
  app.use(errorMiddleware());
  app.use(route);
  return app;
}

describe('rateLimitHeaders', () => {
  it('renders the X-RateLimit trio and the IETF structured fields', () => {
    expect(rateLimitHeaders({ allowed: true, remaining: 299, resetSeconds: 60 }, { limit: 300, windowSeconds: 60 })).toEqual({
      'X-RateLimit-Limit': '300',
      'X-RateLimit-Remaining': '299',
      'X-RateLimit-Window': '60',
      'RateLimit-Policy': '"default";q=300;w=60',
      RateLimit: '"default";r=299;t=60',
    });
  });

  it('adds Retry-After to a refusal', () => {
    expect(rateLimitHeaders({ allowed: false, remaining: 0, resetSeconds: 17 }, { limit: 300, windowSeconds: 60 })).toMatchObject({
      'Retry-After': '17',
      RateLimit: '"default";r=0;t=17',
    });
  });
});

describe('clientIp', () => {
  /** The key each request was counted under, for a request from 127.0.0.1 through `trustedProxyCount` proxies. */
  async function keyOf(trustedProxyCount: number, forwardedFor?: string): Promise<string | undefined> {
    const keys: string[] = [];
    const store: RateLimitStore = {
      consume: ({ key }) => {
        keys.push(key);
        return Promise.resolve({ allowed: true, remaining: 1, resetSeconds: 1 });
      },
    };
    const headers = forwardedFor === undefined ? undefined : { 'X-Forwarded-For': forwardedFor };
    await send(appWith({ clock: () => T0, store, trustedProxyCount }), { path: '/', headers });
    return keys[0];
  }

  it('uses the socket address unless proxies are trusted', async () => {
    expect(await keyOf(0, '1.1.1.1')).toBe('127.0.0.1');
  });

  it('takes the N-th X-Forwarded-For entry from the right behind N trusted proxies', async () => {
    const forwardedFor = 'spoofed, 198.51.100.9 , 10.0.0.2';
    expect(await keyOf(1, forwardedFor)).toBe('10.0.0.2');
    expect(await keyOf(2, forwardedFor)).toBe('198.51.100.9');
    expect(await keyOf(2, '198.51.100.9')).toBe('198.51.100.9');
    expect(await keyOf(1)).toBe('127.0.0.1');
  });

  it('folds IPv4-mapped IPv6, and keys a forwarded entry that is no address as the socket address', async () => {
    expect(clientIp('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientIp('')).toBe('unknown');
    expect(await keyOf(1, 'x'.repeat(500))).toBe('127.0.0.1');
  });
});

describe('rateLimit middleware (in process)', () => {
  it('sets the headers on successes and on errors from below', async () => {
    const now = T0;
    const app = appWith({ clock: () => now, limit: 5, windowSeconds: 60 }, () => {
      throw new ApiError('NOT_FOUND', 'No.');
    });
    const res = await send(app, { path: '/' });
    expect(res.status).toBe(404);
    expect(res.headers).toMatchObject({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '4',
      'x-ratelimit-window': '60',
      'ratelimit-policy': '"default";q=5;w=60',
      ratelimit: '"default";r=4;t=60',
    });
  });

  it('answers 429 with Retry-After until the oldest request leaves the window', async () => {
    let now = T0;
    const app = appWith({ clock: () => now, limit: 2, windowSeconds: 60 });
    expect((await send(app, { path: '/' })).status).toBe(200);
    now = T0 + 15_000;
    expect((await send(app, { path: '/' })).headers['x-ratelimit-remaining']).toBe('0');
    now = T0 + 20_000;
    const refused = await send(app, { path: '/' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.headers['ratelimit']).toBe('"default";r=0;t=40');
    expect(refused.json.error.type).toBe('RATE_LIMIT_EXCEEDED');
    now = T0 + 60_000;
    expect((await send(app, { path: '/' })).status).toBe(200);
  });

  it('counts per forwarded client only when proxies are trusted', async () => {
    const now = T0;
    const trusting = appWith({ clock: () => now, limit: 1, trustedProxyCount: 1 });
    expect((await send(trusting, { path: '/', headers: { 'X-Forwarded-For': '198.51.100.1' } })).status).toBe(200);
    expect((await send(trusting, { path: '/', headers: { 'X-Forwarded-For': '198.51.100.2' } })).status).toBe(200);
    expect((await send(trusting, { path: '/', headers: { 'X-Forwarded-For': '198.51.100.2' } })).status).toBe(429);

    const direct = appWith({ clock: () => now, limit: 1 });
    expect((await send(direct, { path: '/', headers: { 'X-Forwarded-For': '198.51.100.1' } })).status).toBe(200);
    expect((await send(direct, { path: '/', headers: { 'X-Forwarded-For': '198.51.100.2' } })).status).toBe(429);
  });

  it('uses an injected store and lets requests through when it fails', async () => {
    const calls: string[] = [];
    const store: RateLimitStore = {
      consume: async ({ key }) => {
        calls.push(key);
        await Promise.resolve();
        return { allowed: true, remaining: 7, resetSeconds: 3 };
      },
    };
    const res = await send(appWith({ clock: () => T0, store }), { path: '/' });
    expect(res.headers['x-ratelimit-remaining']).toBe('7');
    expect(calls).toEqual(['127.0.0.1']);

    const broken: RateLimitStore = {
      consume: () => {
        throw new Error('redis down');
      },
    };
    expect((await send(appWith({ clock: () => T0, store: broken }), { path: '/' })).status).toBe(200);
  });
});
