// The cache hit, answered before Koa (api/http/earlyHit.ts), and the codings kept beside each
// stored body (api/http/contentCoding.ts): over a few hundred URLs and three codings, a hit has
// the bytes and headers of the miss that stored it (but X-Cache, Age and the budget left), and
// a hit through the whole pipeline (another spelling of the URL) the same headers in the same
// order; a coded body decodes to the plain one under the same weak ETag.
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCurrentAt } from '../../services/mongo/index.ts';
import { afterFreshnessBound, openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { NOW, calendarEvents, ids } from './calendarSeed.ts';
import { header, rawRequest, stableHeaders as stable, type RawReply } from './rawReply.ts';
import { clubs, registryEvents } from './registrySeed.ts';

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_hit_answers');
  await database.project([...calendarEvents, ...registryEvents], NOW);
  await recordCurrentAt(database.db, 1, new Date(NOW.getTime() - 1_000));
  await afterFreshnessBound();
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

const rawGet = (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawReply> =>
  rawRequest(api.origin, path, headers, method);

/** A few hundred URLs of every cached endpoint: sorts, orders, pages, filters, details. */
function urls(): string[] {
  const list: string[] = [];
  for (const sort of ['startDate', 'endDate', 'name', 'updatedAt', 'createdAt'])
    for (const order of ['asc', 'desc'])
      for (const limit of [1, 3, 20, 100])
        for (const page of [1, 2]) list.push(`/competitions?sort=${sort}&order=${order}&limit=${limit}&page=${page}`);
  for (const filter of [
    'country=LV',
    'status=open',
    'period=upcoming',
    'period=past',
    'include=categories',
    'include=entriesCount',
    'search=riga',
    'city=R%C4%ABga',
    'registrationOpen=true',
  ])
    list.push(`/competitions?${filter}`, `/competitions.ics?${filter.startsWith('include') ? 'country=EE' : filter}`);
  for (const resource of ['dancers', 'coaches', 'judges', 'clubs'])
    for (const sort of ['name', 'approvedAt'])
      for (const limit of [1, 5, 20, 100]) for (const page of [1, 2]) list.push(`/${resource}?sort=${sort}&limit=${limit}&page=${page}`);
  for (const id of [ids.riga, ids.tallinn, ids.vilnius, ids.jurmala, ...ids.ties])
    list.push(`/competitions/${id}`, `/competitions/${id}/categories`);
  for (const id of Object.values(clubs)) list.push(`/clubs/${id}`);
  list.push('/filters', '/registry/filters', '/', '/openapi.json', '/docs', '/competitions.ics');
  return list;
}

const CODINGS: Array<Record<string, string>> = [{}, { 'Accept-Encoding': 'gzip, deflate' }, { 'Accept-Encoding': 'gzip, deflate, br' }];

describe('a cache hit', () => {
  it('has the bytes and headers of the miss that stored it, in every coding, over a few hundred URLs', async () => {
    const all = urls();
    expect(all.length).toBeGreaterThan(150);
    let compared = 0;
    for (const path of all) {
      for (const coding of CODINGS) {
        const id = { 'X-Request-Id': 'hit-answers', ...coding };
        const first = await rawGet(path, id);
        if (first.status !== 200) continue;
        const hit = await rawGet(path, id);
        expect(hit.status, path).toBe(200);
        expect(header(hit, 'x-cache'), path).toBe('HIT');
        expect(hit.body.equals(first.body), path).toBe(true);
        expect(new Map(stable(hit)), path).toEqual(new Map(stable(first)));
        expect(
          hit.headers
            .map(([name]) => name)
            .filter((name) => name !== 'age')
            .sort(),
          path,
        ).toEqual(
          first.headers
            .map(([name]) => name)
            .filter((name) => name !== 'age')
            .sort(),
        );
        // Another spelling of the same resource and query: a target never validated, so the hit further down answers it.
        const otherSpelling = await rawGet(path.includes('?') ? `${path}&` : `${path}?`, id);
        expect(header(otherSpelling, 'x-cache'), path).toBe('HIT');
        expect(otherSpelling.body.equals(hit.body), path).toBe(true);
        expect(stable(otherSpelling), path).toEqual(stable(hit));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(400);
  }, 300_000);
});

describe('codings of a stored body', () => {
  it('send gzip or brotli as asked, decode to the plain bytes under the same weak ETag, and vary on Accept-Encoding', async () => {
    const path = '/competitions?limit=20&include=categories';
    const plain = await rawGet(path);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(header(plain, 'content-encoding')).toBeUndefined();
    expect(header(plain, 'vary')).toBe('Origin, Accept-Encoding');
    const gzip = await rawGet(path, { 'Accept-Encoding': 'gzip' });
    const br = await rawGet(path, { 'Accept-Encoding': 'gzip, br' });
    expect(header(gzip, 'content-encoding')).toBe('gzip');
    expect(header(br, 'content-encoding')).toBe('br');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(Number(header(br, 'content-length'))).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(header(gzip, 'etag')).toBe(header(plain, 'etag'));
    expect(header(br, 'etag')).toBe(header(plain, 'etag'));
    const notModified = await rawGet(path, { 'Accept-Encoding': 'br', 'If-None-Match': header(plain, 'etag')! });
    expect(notModified.status).toBe(304);
    expect(header(notModified, 'content-encoding')).toBeUndefined();
    expect(header(notModified, 'vary')).toBe('Origin, Accept-Encoding');
    process.stdout.write(`bytes on the wire for ${path}: plain ${plain.body.length}, gzip ${gzip.body.length}, br ${br.body.length}\n`);
  });

  it('leave a body under 1 KB plain, whatever the client accepts', async () => {
    const path = '/competitions?country=EE&period=past';
    const small = await rawGet(path, { 'Accept-Encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(header(small, 'content-encoding')).toBeUndefined();
    expect(header(small, 'vary')).toBe('Origin');
  });
});

describe('uncached work past its bound', () => {
  it('answers 503 with Retry-After in the error envelope, and answers again once the work is done', async () => {
    const bounded = await startApi(database.db, NOW, { API_WORK_CONCURRENCY: '1', API_WORK_QUEUE_LENGTH: '0' });
    try {
      const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => bounded.request(`/api/v1/dancers?limit=${i + 1}`)));
      const refused = replies.filter((reply) => reply.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      expect(replies.filter((reply) => reply.status === 200).length).toBeGreaterThan(0);
      for (const reply of refused) {
        expect(reply.json.error.type).toBe('SERVICE_UNAVAILABLE');
        expect(reply.headers.get('retry-after')).toBe('1');
        expect(reply.headers.get('cache-control')).toBe('no-store');
      }
      expect((await bounded.request('/api/v1/dancers?limit=50')).status).toBe(200);
    } finally {
      await bounded.close();
    }
  });

  it('gives the slot of a streamed answer back when it ends or the client leaves', async () => {
    const bounded = await startApi(database.db, NOW, {
      API_WORK_CONCURRENCY: '1',
      API_WORK_QUEUE_LENGTH: '0',
      CACHE_ENTRY_MAX_BYTES: '2048',
    });
    try {
      // A page of the nine visible competitions is past 2 KB: streamed, never cached.
      const streamed = await bounded.request('/api/v1/competitions?limit=20&include=categories&sort=name');
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('etag')).toMatch(/^W\/"s-/);
      expect(streamed.json.data).toHaveLength(9);
      const { hostname, port } = new URL(bounded.origin);
      await new Promise<void>((resolve) => {
        const req = httpRequest(
          { host: hostname, port, path: '/api/v1/competitions?limit=20&include=categories&sort=startDate' },
          (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', () => resolve());
        req.end();
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await bounded.request('/api/v1/clubs?limit=2')).status).toBe(200);
    } finally {
      await bounded.close();
    }
  });
});
