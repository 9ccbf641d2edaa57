import { describe, expect, it } from 'vitest';
import Koa from 'koa';
import { httpPipeline } from './httpPipeline.ts';
import { matchedEndpointOf, queryOf } from './requestState.ts';
import { BodyCache } from './bodyCache.ts';
import { send } from './harness.test.ts';
import type { TestRequest } from './harness.test.ts';

const T0 = 1_700_000_000_000;
const UUID = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

function harness(
  options: { limit?: number; maxBytes?: number; fail?: Error; gate?: Promise<void>; failFirst?: boolean; versionGate?: Promise<void> } = {},
) {
  const state = { now: T0, versions: { calendar: 'v1', registry: 'r1' }, routeCalls: 0, queries: [] as unknown[] };
  const cache = new BodyCache(options.maxBytes ?? 1_000_000);
  const app = new Koa();
  app.silent = true;
  for (const middleware of httpPipeline({
    clock: () => state.now,
    rateLimit: { limit: options.limit ?? 300 },
    cache: {
      maxBytes: options.maxBytes ?? 1_000_000,
      cache,
      getDataVersion: async (_ctx, listings) => {
        // Like the API's coalesced meta read: many requests resume from one read in the same tick.
        if (options.versionGate) await options.versionGate;
        return listings.includes('competitions') ? state.versions.calendar : state.versions.registry;
      },
    },
  })) {
    app.use(middleware);
  }
  app.use(async (ctx) => {
    state.routeCalls += 1;
    const call = state.routeCalls;
    if (options.gate) await options.gate;
    if (options.fail) throw options.fail;
    if (options.failFirst && call === 1) throw new Error('first computation failed');
    const matched = matchedEndpointOf(ctx);
    const query = matched?.definition.name === 'competitions' ? queryOf(ctx, 'competitions') : undefined;
    state.queries.push(query);
    ctx.body = {
      data: { endpoint: matched?.definition.name, params: matched?.params, page: query?.page, version: state.versions.calendar },
    };
  });
  const request = (req: TestRequest) => send(app, req);
  return { state, cache, request };
}

describe('httpPipeline: paths and methods', () => {
  it('answers 404 in the envelope for unknown paths and non-uuid club ids', async () => {
    const { request } = harness();
    const traversals = [
      '/api/v1/docs/assets/..%2F..%2Fpackage.json',
      '/api/v1/docs/assets/%2e%2e%2fpackage.json',
      '/api/v1/docs/assets/../../package.json',
      '/api/v1/docs/assets/index.html',
      '/api/v1/docs/assets/swagger-ui.css/x',
    ];
    for (const path of [
      '/',
      '/api',
      '/api/v1//',
      '/api/v1/nope',
      '/api/v1/clubs/not-a-uuid',
      '/api/v1/competitions/a/b',
      '/api/v2/competitions',
      '/api/v1/docs/',
      ...traversals,
    ]) {
      const res = await request({ path });
      expect(res.status, path).toBe(404);
      expect(res.json).toEqual({ error: { type: 'NOT_FOUND', message: 'No resource at this path.', details: [] } });
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
      expect(res.headers['x-request-id']).toBeDefined();
    }
  });

  it('answers 405 with Allow for other methods on known paths', async () => {
    const { request, state } = harness();
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await request({ method, path: '/api/v1/competitions' });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.json.error.type).toBe('METHOD_NOT_ALLOWED');
    }
    expect(state.routeCalls).toBe(0);
  });

  it('passes decoded path parameters and the typed query to the route', async () => {
    const { request } = harness();
    expect((await request({ path: '/api/v1/competitions/riga%20open' })).json.data).toMatchObject({
      endpoint: 'competition',
      params: { idOrSlug: 'riga open' },
    });
    expect((await request({ path: `/api/v1/clubs/${UUID}` })).json.data.params).toEqual({ id: UUID });
    expect((await request({ path: '/api/v1/competitions?page=3' })).json.data.page).toBe(3);
  });

  it('resolves a URL once: a repeat gets the same endpoint and frozen query, other methods and bad URLs are refused each time', async () => {
    const { request, state } = harness();
    // updatedSince bypasses the cache, so every request reaches the route.
    const url = '/api/v1/competitions?page=2&updatedSince=2026-01-01T00:00:00Z';
    expect((await request({ path: url })).json.data).toMatchObject({ endpoint: 'competitions', page: 2 });
    expect((await request({ path: url })).json.data).toMatchObject({ endpoint: 'competitions', page: 2 });
    expect(state.queries).toHaveLength(2);
    expect(state.queries[1]).toBe(state.queries[0]);
    expect(Object.isFrozen(state.queries[0])).toBe(true);
    expect((await request({ method: 'POST', path: url })).status).toBe(405);
    for (let i = 0; i < 2; i++) {
      const bad = await request({ path: '/api/v1/competitions?page=0' });
      expect(bad.status).toBe(400);
      expect(bad.json.error.details).toEqual([expect.stringMatching(/^page: /)]);
    }
    expect(state.routeCalls).toBe(2);
  });

  it('reads the base path, with or without its slash, as the root document', async () => {
    const { request } = harness();
    expect((await request({ path: '/api/v1' })).json.data.endpoint).toBe('root');
    expect((await request({ path: '/api/v1/' })).json.data.endpoint).toBe('root');
    expect((await request({ path: '/api/v1/docs/assets/swagger-ui.css' })).json.data).toMatchObject({
      endpoint: 'referencePageAsset',
      params: { file: 'swagger-ui.css' },
    });
  });

  it("sets an endpoint's own headers on its 200s (hit or miss) and 304s, never on its errors or on others", async () => {
    const { request } = harness();
    const csp = (res: { headers: Record<string, unknown> }) => res.headers['content-security-policy'];
    const miss = await request({ path: '/api/v1/docs' });
    expect(miss.headers['x-cache']).toBe('MISS');
    expect(csp(miss)).toMatch(/^default-src 'none'; script-src 'self';/);
    const hit = await request({ path: '/api/v1/docs' });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(csp(hit)).toBe(csp(miss));
    const notModified = await request({ path: '/api/v1/docs', headers: { 'If-None-Match': String(hit.headers.etag) } });
    expect(notModified.status).toBe(304);
    expect(csp(notModified)).toBe(csp(miss));
    const invalid = await request({ path: '/api/v1/docs?x=1' });
    expect(invalid.status).toBe(400);
    expect(csp(invalid)).toBeUndefined();
    expect(csp(await request({ path: '/api/v1/filters' }))).toBeUndefined();
  });

  it('answers 400 naming every offending parameter before the cache and the route', async () => {
    const { request, state } = harness();
    const res = await request({ path: '/api/v1/coaches?status=ACTIVE&limit=500&cityId=1' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        type: 'INVALID_REQUEST',
        message: 'One or more query parameters are invalid.',
        details: [
          'status: not accepted on /coaches (coaches have no status)',
          'limit: must be an integer from 1 to 100 (got 500)',
          'cityId: unknown parameter (removed; use city)',
        ],
      },
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(state.routeCalls).toBe(0);
  });

  it('answers 500 with the request id and 503 with Retry-After from the route', async () => {
    const crash = harness({ fail: new Error('boom at db.ts:12') });
    const res = await crash.request({ path: '/api/v1/filters', headers: { 'X-Request-Id': 'r-1' } });
    expect(res.status).toBe(500);
    expect(res.json.error.message).toBe('Internal error (request id r-1).');
    expect(res.headers['x-cache']).toBeUndefined();

    const down = harness({ fail: Object.assign(new Error('getaddrinfo ENOTFOUND mongo'), { name: 'MongoServerSelectionError' }) });
    const unavailable = await down.request({ path: '/api/v1/dancers' });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers['retry-after']).toBe('5');
    expect(unavailable.headers['x-ratelimit-limit']).toBe('300');
  });
});

describe('httpPipeline: CORS', () => {
  it('allows any origin and exposes the API headers', async () => {
    const { request } = harness();
    const res = await request({ path: '/api/v1/filters', headers: { Origin: 'https://example.org' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toBe(
      'ETag,X-Cache,X-Request-Id,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Window,RateLimit,RateLimit-Policy,Retry-After,X-Data-Current-At',
    );
  });

  it('answers a preflight without touching the route or the budget', async () => {
    const { request, state } = harness({ limit: 1 });
    const res = await request({
      method: 'OPTIONS',
      path: '/api/v1/competitions',
      headers: {
        Origin: 'https://example.org',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'if-none-match, x-request-id',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET,HEAD',
      'access-control-allow-headers': 'if-none-match, x-request-id',
      'access-control-max-age': '86400',
    });
    expect(state.routeCalls).toBe(0);
    expect((await request({ path: '/api/v1/competitions' })).status).toBe(200);
  });

  it('treats OPTIONS without a preflight as a method not allowed', async () => {
    const { request } = harness();
    expect((await request({ method: 'OPTIONS', path: '/api/v1/competitions' })).status).toBe(405);
  });
});

describe('httpPipeline: cache, ETag and 304', () => {
  it('misses, then hits with the same bytes and ETag, with Cache-Control per endpoint TTL', async () => {
    const { request, state } = harness();
    const miss = await request({ path: '/api/v1/competitions?page=2&limit=5' });
    expect(miss.headers).toMatchObject({
      'x-cache': 'MISS',
      'cache-control': 'public, max-age=60',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(miss.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
    state.now += 30_000;
    const hit = await request({ path: '/api/v1/competitions?limit=5&page=2' });
    expect(hit.headers).toMatchObject({ 'x-cache': 'HIT', etag: miss.headers.etag, age: '30', 'cache-control': 'public, max-age=60' });
    expect(hit.text).toBe(miss.text);
    expect(state.routeCalls).toBe(1);
    expect((await request({ path: '/api/v1/clubs' })).headers['cache-control']).toBe('public, max-age=120');
    expect((await request({ path: '/api/v1/competitions/x/categories' })).headers['cache-control']).toBe('public, max-age=300');
    expect((await request({ path: '/api/v1/registry/filters' })).headers['cache-control']).toBe('public, max-age=300');
  });

  it('computes a missing entry once for concurrent identical requests (single flight)', async () => {
    let open: () => void = () => undefined;
    const { request, state } = harness({ gate: new Promise((resolve) => (open = resolve)) });
    const replies = Array.from({ length: 20 }, () => request({ path: '/api/v1/competitions?page=3' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    open();
    const done = await Promise.all(replies);
    expect(state.routeCalls).toBe(1);
    expect(new Set(done.map((r) => r.text)).size).toBe(1);
    expect(done.map((r) => r.headers['x-cache']).sort()).toEqual([...Array<string>(19).fill('HIT'), 'MISS']);
    expect(new Set(done.map((r) => r.headers.etag)).size).toBe(1);
  });

  it('stays single flight when concurrent requests learn the data version in the same tick', async () => {
    let release: () => void = () => undefined;
    const { request, state } = harness({ versionGate: new Promise((resolve) => (release = resolve)) });
    const replies = Array.from({ length: 20 }, () => request({ path: '/api/v1/competitions?page=5' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const done = await Promise.all(replies);
    expect(state.routeCalls).toBe(1);
    expect(done.map((r) => r.headers['x-cache']).sort()).toEqual([...Array<string>(19).fill('HIT'), 'MISS']);
  });

  it('lets waiters compute for themselves when the shared computation fails', async () => {
    let open: () => void = () => undefined;
    const { request, state } = harness({ gate: new Promise((resolve) => (open = resolve)), failFirst: true });
    const replies = Array.from({ length: 3 }, () => request({ path: '/api/v1/competitions?page=4' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    open();
    const statuses = (await Promise.all(replies)).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 500]);
    expect(state.routeCalls).toBeGreaterThanOrEqual(2);
  });

  it('expires entries after their TTL on the injected clock', async () => {
    const { request, state } = harness();
    await request({ path: '/api/v1/competitions' });
    state.now += 59_999;
    expect((await request({ path: '/api/v1/competitions' })).headers['x-cache']).toBe('HIT');
    state.now += 1;
    expect((await request({ path: '/api/v1/competitions' })).headers['x-cache']).toBe('MISS');
  });

  it('misses at once when the data version of the scope changes', async () => {
    const { request, state } = harness();
    const before = await request({ path: '/api/v1/competitions/riga' });
    await request({ path: '/api/v1/dancers' });
    state.versions.calendar = 'v2';
    const after = await request({ path: '/api/v1/competitions/riga' });
    expect(after.headers['x-cache']).toBe('MISS');
    expect(after.json.data.version).toBe('v2');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await request({ path: '/api/v1/dancers' })).headers['x-cache']).toBe('HIT');
  });

  it('bypasses the cache with updatedSince and answers no-store', async () => {
    const { request, state } = harness();
    for (let i = 0; i < 2; i += 1) {
      const res = await request({ path: '/api/v1/competitions?updatedSince=2025-01-01T00:00:00Z' });
      expect(res.headers).toMatchObject({ 'x-cache': 'BYPASS', 'cache-control': 'no-store' });
      expect(res.headers.etag).toBeDefined();
    }
    expect(state.routeCalls).toBe(2);
  });

  it('answers 304 with no body to a matching If-None-Match, on a miss and on a hit', async () => {
    const { request, state } = harness();
    const first = await request({ path: '/api/v1/filters' });
    const etag = String(first.headers.etag);
    state.now += 300_000; // expired: the next one is a miss that rebuilds the same body
    const onMiss = await request({ path: '/api/v1/filters', headers: { 'If-None-Match': etag } });
    expect(onMiss.status).toBe(304);
    expect(onMiss.headers['x-cache']).toBe('MISS');
    const onHit = await request({ path: '/api/v1/filters', headers: { 'If-None-Match': `"other", ${etag.slice(2)}` } });
    expect(onHit.status).toBe(304);
    expect(onHit.text).toBe('');
    expect(onHit.headers).toMatchObject({ 'x-cache': 'HIT', etag, 'cache-control': 'public, max-age=300' });
    expect(onHit.headers['x-ratelimit-remaining']).toBeDefined();
    expect((await request({ path: '/api/v1/filters', headers: { 'If-None-Match': '*' } })).status).toBe(304);
    expect((await request({ path: '/api/v1/filters', headers: { 'If-None-Match': 'W/"stale"' } })).status).toBe(200);
  });

  it('answers 304 to a matching If-None-Match whatever Cache-Control or If-Modified-Since say (where Koa ctx.fresh answers 200)', async () => {
    const { request } = harness();
    const etag = String((await request({ path: '/api/v1/filters' })).headers.etag);
    // A browser revalidating with fetch(url, { cache: 'no-cache' }) sends both headers; the reference says 304.
    const noCache = await request({ path: '/api/v1/filters', headers: { 'If-None-Match': etag, 'Cache-Control': 'no-cache' } });
    expect(noCache.status).toBe(304);
    // RFC 9110 13.2.2: with If-None-Match, If-Modified-Since is ignored (the list has no Last-Modified at all).
    const withDate = await request({
      path: '/api/v1/filters',
      headers: { 'If-None-Match': etag, 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
    });
    expect(withDate.status).toBe(304);
  });

  it('spends rate-limit budget on hits and 304s', async () => {
    const { request } = harness({ limit: 3 });
    const first = await request({ path: '/api/v1/filters' });
    await request({ path: '/api/v1/filters' });
    const notModified = await request({ path: '/api/v1/filters', headers: { 'If-None-Match': String(first.headers.etag) } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['x-ratelimit-remaining']).toBe('0');
    expect((await request({ path: '/api/v1/filters' })).status).toBe(429);
  });

  it('answers HEAD like GET without a body, sharing the cache', async () => {
    const { request } = harness();
    const head = await request({ method: 'HEAD', path: '/api/v1/judges' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['x-cache']).toBe('MISS');
    const get = await request({ path: '/api/v1/judges' });
    expect(get.headers['x-cache']).toBe('HIT');
    expect(get.headers.etag).toBe(head.headers.etag);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.text));
  });

  it('keeps the cached bytes under maxBytes, evicting the least recently used', async () => {
    const { request, cache } = harness({ maxBytes: 2_000 });
    for (let page = 1; page <= 20; page += 1) await request({ path: `/api/v1/competitions?page=${page}` });
    expect(cache.bytes).toBeLessThanOrEqual(2_000);
    expect(cache.entries).toBeGreaterThan(0);
    expect(cache.entries).toBeLessThan(20);
    expect((await request({ path: '/api/v1/competitions?page=20' })).headers['x-cache']).toBe('HIT');
    expect((await request({ path: '/api/v1/competitions?page=1' })).headers['x-cache']).toBe('MISS');
  });
});
