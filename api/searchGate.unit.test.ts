import Koa from 'koa';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { errorMiddleware } from './http/errorMiddleware.ts';
import { send } from './http/harness.test.ts';
import { apiState } from './http/requestState.ts';
import { ENDPOINTS, type EndpointName } from '../schemas/api/endpoints.ts';
import { SEARCH_BUDGET, searchGate } from './searchGate.ts';

/** An app whose route holds every request until `finish` is called, behind searchGate({ atOnce: 1, ...queue }). */
function heldApp(metrics: Registry, queue: { queueLength?: number; queueTimeoutMs?: number } = {}) {
  const held: Array<() => void> = [];
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware());
  app.use((ctx, next) => {
    const endpoint = ctx.path.slice(1) as EndpointName;
    const query = ctx.querystring;
    apiState(ctx).endpoint = { definition: ENDPOINTS[endpoint], params: {} };
    apiState(ctx).query = Object.fromEntries(new URLSearchParams(query));
    return next();
  });
  app.use(searchGate({ atOnce: 1, metrics, ...queue }));
  app.use(async (ctx) => {
    await new Promise<void>((resolve) => held.push(resolve));
    ctx.body = { ok: true };
  });
  return { app, finish: () => held.splice(0).forEach((resolve) => resolve()), held: () => held.length };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe('searchGate', () => {
  it('runs `atOnce` uncached searches and answers the next 503 with Retry-After at once, leaving other requests alone', async () => {
    const metrics = new Registry();
    const { app, finish, held } = heldApp(metrics);
    const running = send(app, { path: '/competitions?search=riga' });
    await until(() => held() === 1);
    const refused = await send(app, { path: '/dancers?search=jan' });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(SEARCH_BUDGET.retryAfterSeconds));
    expect(refused.json).toMatchObject({ error: { type: 'SERVICE_UNAVAILABLE' } });
    // Not searches, or a search run in process: not counted.
    const others = [
      send(app, { path: '/competitions?city=riga' }),
      send(app, { path: '/competitionCategories?search=latin' }),
      send(app, { path: '/dancers' }),
    ];
    await until(() => held() === 4);
    finish();
    expect((await running).status).toBe(200);
    for (const other of await Promise.all(others)) expect(other.status).toBe(200);
    // The turn is back.
    const again = send(app, { path: '/clubs?search=aurora' });
    await until(() => held() === 1);
    finish();
    expect((await again).status).toBe(200);
    expect(await metrics.getSingleMetricAsString('api_searches_refused_total')).toMatch(/api_searches_refused_total 1$/m);
  });

  it('lets a search past its turn wait in the queue and run when the turn is back, and refuses it once its wait is over', async () => {
    const metrics = new Registry();
    const { app, finish, held } = heldApp(metrics, { queueLength: 1, queueTimeoutMs: 200 });
    const first = send(app, { path: '/competitions?search=riga' });
    await until(() => held() === 1);
    const waiting = send(app, { path: '/dancers?search=jan' });
    // The queue holds one: the third search is refused at once.
    const third = await send(app, { path: '/clubs?search=aurora' });
    expect(third.status).toBe(503);
    finish();
    expect((await first).status).toBe(200);
    await until(() => held() === 1);
    finish();
    expect((await waiting).status).toBe(200);
    // A search that waits past the queue's timeout is refused.
    const holding = send(app, { path: '/competitions?search=riga' });
    await until(() => held() === 1);
    const late = await send(app, { path: '/dancers?search=jan' });
    expect(late.status).toBe(503);
    expect(late.headers['retry-after']).toBe(String(SEARCH_BUDGET.retryAfterSeconds));
    finish();
    expect((await holding).status).toBe(200);
    expect(await metrics.getSingleMetricAsString('api_searches_refused_total')).toMatch(/api_searches_refused_total 2$/m);
  });
});
