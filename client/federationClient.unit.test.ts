import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FederationApiError, MemoryEtagCache, createFederationClient } from './index.ts';
import { CLIENT_VERSION } from './version.ts';

// The client's own behaviour (retries, the ETag cache, timeouts, errors, pages) against a local
// HTTP server that answers as scripted; the real API is client/example.int.test.ts's and
// test/api/typedClient.int.test.ts's.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let script: Handler[] = [];
let seen: IncomingMessage[] = [];
let origin = '';
const server = createServer((req, res) => {
  seen.push(req);
  const handler = script.shift() ?? ((_q, r) => void r.writeHead(500).end('script ran out'));
  handler(req, res);
});

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    void res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
const envelope = (type: string, message: string, details: string[] = []) => ({ error: { type, message, details } });
const page = (n: number, next: string | null) => ({
  data: [{ id: `c${n}a` }, { id: `c${n}b` }],
  meta: { page: n, limit: 2, total: 5, totalPages: 3, hasNextPage: next !== null, hasPreviousPage: n > 1 },
  links: { self: `${origin}/api/v1/competitions?page=${n}`, next, previous: null },
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  seen = [];
});

const clientOf = (options: Parameters<typeof createFederationClient>[1] = {}) =>
  createFederationClient(`${origin}/api/v1`, { retry: { baseDelayMs: 1 }, ...options });

describe('requests', () => {
  it('fills path parameters, sends lists as one comma list and names itself in User-Agent', async () => {
    script = [json(200, { data: { id: 'x' } })];
    await clientOf({ userAgent: 'my-app/1.2' }).GET('/competitions/{idOrSlug}/categories', {
      params: { path: { idOrSlug: 'riga open/2025' }, query: { entryType: ['couple', 'solo'], level: 3, search: undefined } },
    });
    expect(seen[0]?.url).toBe('/api/v1/competitions/riga%20open%2F2025/categories?entryType=couple,solo&level=3');
    expect(seen[0]?.headers['user-agent']).toBe(`my-app/1.2 federation-read-client/${CLIENT_VERSION}`);
  });

  it('answers an error status with a typed error: the envelope, the status and the request id', async () => {
    script = [
      json(400, envelope('INVALID_REQUEST', 'One or more query parameters are invalid.', ['limit: no']), { 'x-request-id': 'r-1' }),
    ];
    const { data, error, response } = await clientOf().GET('/competitions', { params: { query: { limit: 500 } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error).toBeInstanceOf(FederationApiError);
    expect(error).toMatchObject({ status: 400, requestId: 'r-1', error: { type: 'INVALID_REQUEST', details: ['limit: no'] } });
    expect(error?.message).toBe('400 INVALID_REQUEST: One or more query parameters are invalid.');
  });

  it('rejects from request() with the same error, and types a body that is not the envelope', async () => {
    script = [(_req, res) => void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>')];
    const failure: unknown = await clientOf({ retry: false })
      .request('/filters')
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FederationApiError);
    expect((failure as FederationApiError).error).toEqual({
      type: 'UNEXPECTED_RESPONSE',
      message: "HTTP 502 without the API's error envelope",
      details: ['<h1>Bad gateway</h1>'],
    });
  });

  it('gives up on an attempt after timeoutMs', async () => {
    script = [() => undefined];
    const failure: unknown = await clientOf({ timeoutMs: 50 })
      .GET('/filters')
      .catch((e: unknown) => e);
    expect((failure as Error).name).toBe('TimeoutError');
    expect(seen).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries 503 and 429 after their Retry-After, then answers', async () => {
    const started = Date.now();
    script = [
      json(503, envelope('SERVICE_UNAVAILABLE', 'busy'), { 'retry-after': '1' }),
      json(429, envelope('RATE_LIMIT_EXCEEDED', 'slow down'), { 'retry-after': '0' }),
      json(200, { data: { countries: [] } }),
    ];
    const { data, response } = await clientOf().GET('/filters');
    expect(response.status).toBe(200);
    expect(data).toEqual({ data: { countries: [] } });
    expect(seen).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('stops after the configured attempts and answers the last response', async () => {
    script = [0, 1, 2].map(() => json(503, envelope('SERVICE_UNAVAILABLE', 'busy'), { 'retry-after': '0' }));
    const { error } = await clientOf({ retry: { attempts: 2, baseDelayMs: 1 } }).GET('/filters');
    expect(error?.status).toBe(503);
    expect(seen).toHaveLength(2);
  });

  it('does not wait for a Retry-After past maxDelayMs, nor retry other statuses', async () => {
    script = [json(429, envelope('RATE_LIMIT_EXCEEDED', 'later'), { 'retry-after': '60' }), json(404, envelope('NOT_FOUND', 'no'))];
    expect((await clientOf({ retry: { maxDelayMs: 5_000 } }).GET('/filters')).error?.status).toBe(429);
    expect((await clientOf().GET('/clubs/{id}', { params: { path: { id: 'x' } } })).error?.status).toBe(404);
    expect(seen).toHaveLength(2);
  });

  it('retries a refused connection with backoff, then rejects with it', async () => {
    const closed = createFederationClient('http://127.0.0.1:9/api/v1', { retry: { attempts: 3, baseDelayMs: 1 } });
    await expect(closed.GET('/filters')).rejects.toThrow(TypeError);
  });
});

describe('the ETag cache', () => {
  it('sends the ETag it kept and answers a 304 with the body it kept', async () => {
    const body = { data: { id: 'c1' } };
    script = [
      json(200, body, { etag: 'W/"v1"' }),
      (_req, res) => void res.writeHead(304, { etag: 'W/"v1"' }).end(),
      json(200, { data: { id: 'c1', name: 'new' } }, { etag: 'W/"v2"' }),
    ];
    const cache = new MemoryEtagCache();
    const api = clientOf({ etagCache: cache });
    const first = await api.GET('/clubs/{id}', { params: { path: { id: 'c1' } } });
    const second = await api.GET('/clubs/{id}', { params: { path: { id: 'c1' } } });
    const third = await api.GET('/clubs/{id}', { params: { path: { id: 'c1' } } });
    expect(seen.map((req) => req.headers['if-none-match'])).toEqual([undefined, 'W/"v1"', 'W/"v1"']);
    expect([first.fromCache, second.fromCache, third.fromCache]).toEqual([false, true, false]);
    expect(second.response.status).toBe(304);
    expect(second.data).toEqual(body);
    expect(cache.get(`${origin}/api/v1/clubs/c1`)?.etag).toBe('W/"v2"');
  });

  it('leaves a validator of the caller’s own alone: its 304 is a NOT_MODIFIED error', async () => {
    script = [(_req, res) => void res.writeHead(304, { etag: 'W/"v1"' }).end()];
    const { error } = await clientOf({ etagCache: true }).GET('/clubs/{id}', {
      params: { path: { id: 'c1' }, header: { 'If-None-Match': 'W/"mine"' } },
    });
    expect(seen[0]?.headers['if-none-match']).toBe('W/"mine"');
    expect(error).toMatchObject({ status: 304, error: { type: 'NOT_MODIFIED' } });
  });
});

describe('pages and items', () => {
  it('follow links.next to the last page', async () => {
    script = [
      json(200, page(1, `${origin}/api/v1/competitions?page=2`)),
      json(200, page(2, `${origin}/api/v1/competitions?page=3`)),
      json(200, page(3, null)),
    ];
    const api = clientOf();
    const ids: string[] = [];
    for await (const competition of api.items('/competitions', { params: { query: { limit: 2 } } })) ids.push(competition.id);
    expect(ids).toEqual(['c1a', 'c1b', 'c2a', 'c2b', 'c3a', 'c3b']);
    expect(seen.map((req) => req.url)).toEqual([
      '/api/v1/competitions?limit=2',
      '/api/v1/competitions?page=2',
      '/api/v1/competitions?page=3',
    ]);
  });

  it('stop with the typed error of a page that fails', async () => {
    script = [json(200, page(1, `${origin}/api/v1/competitions?page=2`)), json(404, envelope('NOT_FOUND', 'gone'))];
    const pages: number[] = [];
    const failure: unknown = await (async () => {
      for await (const p of clientOf().pages('/competitions')) pages.push(p.meta.page);
    })().catch((e: unknown) => e);
    expect(pages).toEqual([1]);
    expect(failure).toMatchObject({ status: 404, error: { type: 'NOT_FOUND' } });
  });
});
