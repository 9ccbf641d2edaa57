import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { answerHitsFirst } from './answerHitsFirst.ts';
import { httpFront } from './httpPipeline.ts';
import { JSON_TYPE } from './serializeBody.ts';
import { StreamedBody } from './streamedBody.ts';
import type { EarlyAnswer } from './earlyHit.ts';

const T0 = 1_700_000_000_000;

interface Raw {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The pipeline before a route of JSON pages made item by item (`items` of `itemBytes` each), served on a port. */
async function front(
  options: {
    items?: number;
    itemBytes?: number;
    maxEntryBytes?: number;
    delayMs?: number;
    work?: { concurrency: number; queueLength: number };
  } = {},
) {
  const state = { now: T0, routeCalls: 0, early: [] as EarlyAnswer[] };
  const app = new Koa();
  app.silent = true;
  const built = httpFront({
    clock: () => state.now,
    cache: { maxBytes: 10_000_000, ...(options.maxEntryBytes ? { maxEntryBytes: options.maxEntryBytes } : {}), getDataVersion: () => 'v1' },
    ...(options.work ? { work: { ...options.work, queueTimeoutMs: 1000 } } : {}),
    beforeCache: [
      async (ctx, next) => {
        ctx.set('X-Data-Current-At', '2026-01-01T00:00:00.000Z');
        await next();
      },
    ],
    early: {
      clientKey: () => '127.0.0.1',
      dataHeaders: () => [['X-Data-Current-At', '2026-01-01T00:00:00.000Z']],
      answered: (answer) => state.early.push(answer),
    },
  });
  for (const middleware of built.middlewares) app.use(middleware);
  answerHitsFirst(app, built.earlyHit!);
  app.use(async (ctx) => {
    state.routeCalls += 1;
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const count = options.items ?? 20;
    const size = options.itemBytes ?? 100;
    async function* page(): AsyncGenerator<string> {
      let separator = '{"data":[';
      for (let i = 0; i < count; i++) {
        await Promise.resolve();
        yield separator + JSON.stringify({ id: i, text: 'x'.repeat(size) });
        separator = ',';
      }
      yield `${separator === ',' ? '' : separator}]}`;
    }
    ctx.body = new StreamedBody(JSON_TYPE, page());
  });
  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const get = (path: string, headers: Record<string, string> = {}): Promise<Raw> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: `/api/v1${path}`, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const lines: Array<[string, string]> = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
        });
      });
      req.on('error', reject);
      req.end();
    });
  return { state, get };
}

const header = (reply: Raw, name: string): string | undefined => reply.headers.find(([n]) => n === name)?.[1];
const VARYING = new Set(['x-ratelimit-remaining', 'ratelimit', 'age', 'x-cache', 'date']);
const stable = (reply: Raw): Array<[string, string]> => reply.headers.filter(([name]) => !VARYING.has(name));

describe('the hit answered before Koa', () => {
  it.each<Record<string, string>>([{}, { 'Accept-Encoding': 'gzip' }, { 'Accept-Encoding': 'br, gzip' }])(
    'has the miss’s bytes and headers, and the headers of the hit through the pipeline in their order (%o)',
    async (coding) => {
      const { state, get } = await front();
      const id = { 'X-Request-Id': 'front-1', ...coding };
      const miss = await get('/competitions?limit=3', id);
      expect(header(miss, 'x-cache')).toBe('MISS');
      const hit = await get('/competitions?limit=3', id);
      expect(header(hit, 'x-cache')).toBe('HIT');
      expect(state.early).toHaveLength(1);
      expect(state.early[0]).toMatchObject({
        method: 'GET',
        path: '/api/v1/competitions',
        status: 200,
        requestId: 'front-1',
        route: 'competitions',
      });
      expect(hit.body.equals(miss.body)).toBe(true);
      expect(new Map(stable(hit))).toEqual(new Map(stable(miss)));
      const throughPipeline = await get('/competitions?limit=3&', id);
      expect(state.early).toHaveLength(1);
      expect(header(throughPipeline, 'x-cache')).toBe('HIT');
      expect(throughPipeline.body.equals(hit.body)).toBe(true);
      expect(stable(throughPipeline)).toEqual(stable(hit));
      expect(throughPipeline.headers.map(([name]) => name)).toEqual(hit.headers.map(([name]) => name));
      expect(state.routeCalls).toBe(1);
      const notModified = await get('/competitions?limit=3', { ...id, 'If-None-Match': header(hit, 'etag')! });
      expect(notModified.status).toBe(304);
      const notModifiedThroughPipeline = await get('/competitions?limit=3&', { ...id, 'If-None-Match': header(hit, 'etag')! });
      expect(stable(notModified)).toEqual(stable(notModifiedThroughPipeline));
    },
  );

  it('sends the stored codings, which decode to the plain bytes under one ETag; a small body stays plain', async () => {
    const { get } = await front();
    const plain = await get('/competitions?limit=3');
    const gzip = await get('/competitions?limit=3', { 'Accept-Encoding': 'gzip' });
    const br = await get('/competitions?limit=3', { 'Accept-Encoding': 'gzip, br' });
    expect(header(plain, 'vary')).toBe('Origin, Accept-Encoding');
    expect(header(gzip, 'content-encoding')).toBe('gzip');
    expect(header(br, 'content-encoding')).toBe('br');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(new Set([header(plain, 'etag'), header(gzip, 'etag'), header(br, 'etag')]).size).toBe(1);
    const small = await (await front({ items: 1, itemBytes: 10 })).get('/competitions?limit=1', { 'Accept-Encoding': 'br' });
    expect(header(small, 'content-encoding')).toBeUndefined();
    expect(header(small, 'vary')).toBe('Origin');
  });
});

describe('a body past the answer budget', () => {
  it('is streamed whole, not cached, with a version validator a revalidation matches before any work', async () => {
    const { state, get } = await front({ items: 50, itemBytes: 1000, maxEntryBytes: 4096 });
    const first = await get('/competitions?limit=50');
    expect(first.status).toBe(200);
    expect(header(first, 'content-length')).toBeUndefined();
    expect(header(first, 'etag')).toMatch(/^W\/"s-/);
    expect((JSON.parse(first.body.toString()) as { data: unknown[] }).data).toHaveLength(50);
    const again = await get('/competitions?limit=50', { 'Accept-Encoding': 'gzip' });
    expect(header(again, 'x-cache')).toBe('MISS');
    expect(header(again, 'content-encoding')).toBe('gzip');
    expect(gunzipSync(again.body).equals(first.body)).toBe(true);
    expect(header(again, 'etag')).toBe(header(first, 'etag'));
    expect(state.routeCalls).toBe(2);
    const revalidated = await get('/competitions?limit=50', { 'If-None-Match': header(first, 'etag')! });
    expect(revalidated.status).toBe(304);
    expect(state.routeCalls).toBe(2);
  });
});

describe('uncached work past its bound', () => {
  it('answers 503 with Retry-After past the queue, and serves again once the slots are free', async () => {
    const { get } = await front({ delayMs: 100, work: { concurrency: 1, queueLength: 1 } });
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => get(`/competitions?limit=${i + 1}`)));
    const refused = replies.filter((reply) => reply.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(4);
    for (const reply of refused) {
      expect(header(reply, 'retry-after')).toBe('1');
      expect(JSON.parse(reply.body.toString())).toMatchObject({ error: { type: 'SERVICE_UNAVAILABLE' } });
    }
    expect((await get('/competitions?limit=50')).status).toBe(200);
  });
});
