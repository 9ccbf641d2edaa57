import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { send } from './harness.test.ts';
import { httpPipeline } from './httpPipeline.ts';
import { MAX_REQUEST_LINE_BYTES } from './requestLineLimit.ts';

function app(): { app: Koa; routeCalls: () => number } {
  let calls = 0;
  const koa = new Koa();
  koa.silent = true;
  for (const middleware of httpPipeline({ clock: () => 0, cache: { maxBytes: 1_000_000, getDataVersion: () => 'v1' } }))
    koa.use(middleware);
  koa.use((ctx) => {
    calls += 1;
    ctx.body = { data: [] };
  });
  return { app: koa, routeCalls: () => calls };
}

/** A valid /competitions URL whose request line (`GET <url> HTTP/1.1`) is exactly `bytes` long. */
function urlOfLine(bytes: number): string {
  const frame = 'GET  HTTP/1.1'.length;
  let url = '/api/v1/competitions?type=t0';
  for (let i = 1; url.length + frame + `,t${i}`.length <= bytes - 40; i++) url += `,t${i}`;
  // A last type item pads the line to the byte (within the item's 64 characters).
  return `${url},${'x'.repeat(bytes - frame - url.length - 1)}`;
}

describe('request line limit', () => {
  it('serves a request line of 8,192 bytes and answers 414 in the envelope at 8,193, before routing', async () => {
    expect(MAX_REQUEST_LINE_BYTES).toBe(8192);
    const { app: koa, routeCalls } = app();
    const longest = urlOfLine(8192);
    expect(`GET ${longest} HTTP/1.1`).toHaveLength(8192);
    expect((await send(koa, { path: longest })).status).toBe(200);
    const over = await send(koa, { path: `${longest}x` });
    expect(over.status).toBe(414);
    expect(over.json.error).toMatchObject({ type: 'URI_TOO_LONG', details: [] });
    expect(over.headers['cache-control']).toBe('no-store');
    expect(routeCalls()).toBe(1);
  });

  it('counts bytes, not characters, and answers 414 on unknown paths too', async () => {
    const { app: koa } = app();
    expect((await send(koa, { path: `/api/v1/nowhere?${'%C3%A9'.repeat(1400)}` })).status).toBe(414);
    expect((await send(koa, { path: `/api/v1/nowhere?${'%C3%A9'.repeat(1300)}` })).status).toBe(404);
  });
});
