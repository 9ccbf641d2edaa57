// A cache hit is answered before routing and query validation (api/http/earlyHit.ts): these
// tests pin that it answers exactly as the hit further down the pipeline does, and that only a
// validated request target ever gets a stored answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpVersions, recordCurrentAt } from '../../services/mongo/index.ts';
import { afterFreshnessBound, openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { NOW, calendarEvents, ids } from './calendarSeed.ts';
import { header, rawRequest, stableHeaders as stable, type RawReply } from './rawReply.ts';

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_cached_answer');
  await database.project(calendarEvents, NOW);
  // X-Data-Current-At is one of the headers a hit must carry.
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
const names = (reply: RawReply): string[] => reply.headers.map(([name]) => name);

// Each path is first requested here, so its first answer is a miss. The second spelling names
// the same resource and query in another order or form: a target never validated before, so it
// goes through routing and validation and is served by the hit further down.
const RESOURCES: Array<{ path: string; otherSpelling: string }> = [
  { path: '/competitions?limit=3&sort=name', otherSpelling: '/competitions?sort=name&limit=3' },
  { path: `/competitions/${ids.riga}`, otherSpelling: `/competitions/${ids.riga}?` },
  { path: '/competitions.ics?period=upcoming', otherSpelling: '/competitions.ics?period=upcomin%67' },
  { path: '/filters', otherSpelling: '/filters?' },
  { path: '/docs', otherSpelling: '/docs?' },
];

describe('a cache hit answered before routing and validation', () => {
  it.each(RESOURCES)(
    'carries the headers of the miss, and of a hit through the whole pipeline in the same order: $path',
    async ({ path, otherSpelling }) => {
      const id = { 'X-Request-Id': 'cached-answer-1' };
      const miss = await rawGet(path, id);
      expect(miss.status).toBe(200);
      expect(header(miss, 'x-cache')).toBe('MISS');
      const hit = await rawGet(path, id);
      expect(header(hit, 'x-cache')).toBe('HIT');
      expect(header(hit, 'age')).toBe('0');
      expect(hit.body).toEqual(miss.body);
      // The miss sets a few headers in another order (the route's before the cache's), never other ones.
      expect(new Map(stable(hit))).toEqual(new Map(stable(miss)));
      expect(names(hit).filter((name) => name !== 'age')).toEqual(expect.arrayContaining(names(miss)));
      expect(names(hit)).toHaveLength(names(miss).length + 1);
      expect(Number(header(hit, 'x-ratelimit-remaining'))).toBe(Number(header(miss, 'x-ratelimit-remaining')) - 1);

      const throughPipeline = await rawGet(otherSpelling, id);
      expect(header(throughPipeline, 'x-cache')).toBe('HIT');
      expect(throughPipeline.body).toEqual(hit.body);
      expect(stable(throughPipeline)).toEqual(stable(hit));
      expect(names(throughPipeline)).toEqual(names(hit));
    },
  );

  it('carries X-Data-Current-At and the reference page its Content-Security-Policy', async () => {
    const list = await rawGet('/competitions?limit=3&sort=name');
    expect(header(list, 'x-cache')).toBe('HIT');
    expect(header(list, 'x-data-current-at')).toBe(new Date(NOW.getTime() - 1_000).toISOString());
    const page = await rawGet('/docs');
    expect(header(page, 'x-cache')).toBe('HIT');
    expect(header(page, 'content-security-policy')).toMatch(/^default-src 'none'/);
  });

  it('never answers a request whose query is invalid from the cache', async () => {
    expect(header(await rawGet('/competitions'), 'x-cache')).toMatch(/^(MISS|HIT)$/);
    expect(header(await rawGet('/competitions'), 'x-cache')).toBe('HIT');
    for (const invalid of [
      '/competitions?unknown=1',
      '/competitions?&unknown=1',
      '/competitions?limit=0',
      '/competitions?limit=20&limit=20',
      '/competitions?cityId=1',
      '/competitions?status=open,',
    ]) {
      for (let i = 0; i < 2; i++) {
        const reply = await rawGet(invalid);
        expect(reply.status, invalid).toBe(400);
        expect(JSON.parse(reply.body.toString('utf8')).error.type).toBe('INVALID_REQUEST');
        expect(header(reply, 'x-cache'), invalid).toBeUndefined();
        expect(header(reply, 'etag'), invalid).toBeUndefined();
        expect(header(reply, 'cache-control')).toBe('no-store');
      }
    }
    expect((await rawGet('/competitions/riga-open-2025/categories?level=11')).status).toBe(400);
    expect((await rawGet('/competitions', {}, 'POST')).status).toBe(405);
  });

  it('answers 304 on a hit to a matching If-None-Match or If-Modified-Since, with the headers of the 304 further down', async () => {
    const path = `/competitions/${ids.riga}`;
    const ok = await rawGet(path);
    expect(header(ok, 'x-cache')).toBe('HIT');
    const etag = header(ok, 'etag')!;
    const lastModified = header(ok, 'last-modified')!;
    const validators: Array<Record<string, string>> = [
      { 'If-None-Match': etag },
      { 'If-None-Match': `"other", ${etag.slice(2)}` },
      { 'If-Modified-Since': lastModified },
    ];
    for (const validator of validators) {
      const notModified = await rawGet(path, { ...validator, 'X-Request-Id': 'cached-answer-304' });
      expect(notModified.status).toBe(304);
      expect(notModified.body.length).toBe(0);
      expect(header(notModified, 'x-cache')).toBe('HIT');
      expect(header(notModified, 'etag')).toBe(etag);
      const throughPipeline = await rawGet(`${path}?`, { ...validator, 'X-Request-Id': 'cached-answer-304' });
      expect(throughPipeline.status).toBe(304);
      expect(stable(throughPipeline)).toEqual(stable(notModified));
      expect(names(throughPipeline)).toEqual(names(notModified));
    }
    expect((await rawGet(path, { 'If-None-Match': 'W/"stale"' })).status).toBe(200);
    const head = await rawGet(path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(header(head, 'x-cache')).toBe('HIT');
    expect(header(head, 'content-length')).toBe(header(ok, 'content-length'));
  });

  it('misses on the next request once the data changed, and hits again after', async () => {
    const path = '/competitions?limit=3&sort=name';
    const before = await rawGet(path);
    expect(header(before, 'x-cache')).toBe('HIT');
    await bumpVersions(database.db, 1, ['competitions']);
    await afterFreshnessBound();
    const after = await rawGet(path);
    expect(header(after, 'x-cache')).toBe('MISS');
    expect(header(await rawGet(path), 'x-cache')).toBe('HIT');
  });
});
