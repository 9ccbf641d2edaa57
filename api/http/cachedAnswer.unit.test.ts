import { describe, expect, it } from 'vitest';
import Koa from 'koa';
import { ENDPOINTS } from '../../schemas/api/endpoints.ts';
import { BodyCache } from './bodyCache.ts';
import { cachedAnswer } from './cachedAnswer.ts';
import { ResolvedUrls } from './resolvedUrls.ts';
import { send } from './harness.test.ts';

const T0 = 1_700_000_000_000;
const URL_LIST = '/api/v1/competitions?page=2';

function harness() {
  const state = { now: T0, version: 'v1', downstream: 0 };
  const cache = new BodyCache(1_000_000);
  const resolved = new ResolvedUrls();
  const app = new Koa();
  app.silent = true;
  app.use(
    cachedAnswer({
      cache,
      resolved,
      clock: () => state.now,
      getDataVersion: () => Promise.resolve(state.version),
      beforeCache: [
        async (ctx, next) => {
          ctx.set('X-Before', 'set');
          await next();
        },
      ],
    }),
  );
  // Stands for the rest of the pipeline (routing, validation, the cache further down, the route).
  app.use((ctx) => {
    state.downstream += 1;
    ctx.body = { downstream: true };
  });
  const remember = (url: string, querystring: string, query: object = { page: 2 }) =>
    resolved.remember(url, {
      endpoint: { definition: ENDPOINTS.competitions, params: {} },
      query: Object.freeze(query),
      path: '/api/v1/competitions',
      querystring,
    });
  const store = (key: string, version = 'v1') =>
    cache.set(key, { body: Buffer.from('{"cached":true}'), etag: 'W/"abc"', version, storedAtMs: T0, expiresAtMs: T0 + 60_000 });
  return {
    state,
    remember,
    store,
    request: (path: string, init: { method?: string; headers?: Record<string, string> } = {}) => send(app, { path, ...init }),
  };
}

describe('cachedAnswer', () => {
  it('answers a fresh entry of a validated target without going further, with the headers of a hit', async () => {
    const { state, remember, store, request } = harness();
    store(remember(URL_LIST, 'page=2').cacheKey);
    state.now += 7_000;
    const res = await request(URL_LIST);
    expect(state.downstream).toBe(0);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ cached: true });
    expect(res.headers).toMatchObject({
      'x-before': 'set',
      'x-cache': 'HIT',
      'cache-control': 'public, max-age=60',
      etag: 'W/"abc"',
      age: '7',
      'content-type': 'application/json; charset=utf-8',
    });
    const notModified = await request(URL_LIST, { headers: { 'If-None-Match': 'W/"abc"' } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['x-cache']).toBe('HIT');
    expect(state.downstream).toBe(0);
  });

  it('goes further for a target never validated, another spelling, another method, updatedSince, or no fresh entry', async () => {
    const { state, remember, store, request } = harness();
    store(remember(URL_LIST, 'page=2').cacheKey);
    const sync = '/api/v1/competitions?updatedSince=2025-01-01T00:00:00Z';
    store(remember(sync, 'updatedSince=2025-01-01T00:00:00Z', { updatedSince: '2025-01-01T00:00:00Z' }).cacheKey);
    const further = async (path: string, method = 'GET') => {
      const before = state.downstream;
      const res = await request(path, { method });
      expect(state.downstream, `${method} ${path}`).toBe(before + 1);
      expect(res.json).toEqual({ downstream: true });
    };
    await further('/api/v1/competitions?page=2&x=1');
    await further('/api/v1/competitions?page=%32');
    await further(URL_LIST, 'POST');
    await further(sync);
    state.version = 'v2';
    await further(URL_LIST);
    state.version = 'v1';
    state.now += 60_000;
    await further(URL_LIST);
  });
});
