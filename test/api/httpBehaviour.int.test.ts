import { Validator } from '@seriousme/openapi-schema-validator';
import { MongoClient } from 'mongodb';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompetitionEnvelope, CompetitionListEnvelope, DancerListEnvelope, ErrorEnvelope } from '../../schemas/api/index.ts';
import { createApp } from '../../api/createApp.ts';
import { loadConfig } from '../../services/config/index.ts';
import { collectionName, switchGeneration } from '../../services/mongo/index.ts';
import { ensureReadModelIndexes, readCollectionIndexes, type ReadListing } from '../../services/readModel/indexPlan.ts';
import { MongoProjectionStore } from '../../projector/write/mongoProjectionStore.ts';
import { projectEvents } from '../../projector/write/projectEvents.ts';
import { projectionCollections } from '../../projector/write/projectionCollections.ts';
import {
  API,
  PROJECTION,
  afterFreshnessBound,
  idsIn,
  openDatabase,
  serve,
  startApi,
  type ApiServer,
  type Database,
  type Reply,
} from './apiHarness.ts';
import { NOW, calendarEvents, ids, riga } from './calendarSeed.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';
import { testServers } from '../support/isolation.ts';
import { histories, registryEvents } from './registrySeed.ts';

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_http');
  await database.project([...calendarEvents, ...registryEvents], NOW);
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

const get = (path: string, headers: Record<string, string> = {}): Promise<Reply> => api.request(`/api/v1${path}`, { headers });
const xCache = (res: Reply): string | null => res.headers.get('x-cache');

describe('response cache and invalidation', () => {
  it('serves a competition edit to a request arriving 50 ms after the write (MISS), while unrelated listings stay cached', async () => {
    const before = await get('/competitions/riga-open-2025');
    expect(xCache(before)).toBe('MISS');
    expect(xCache(await get('/competitions/riga-open-2025'))).toBe('HIT');
    await get('/dancers');
    expect(xCache(await get('/dancers'))).toBe('HIT');

    riga.at('2025-06-14T09:30:00Z', 'competition.details_changed', { name: 'Riga Open 2025 (WDSF)' });
    await database.project(riga.events.slice(-1), NOW);
    await afterFreshnessBound();

    const after = await get('/competitions/riga-open-2025');
    expect(after.status).toBe(200);
    expect(xCache(after)).toBe('MISS');
    expectMatchesSchema(after.json, CompetitionEnvelope);
    expect(after.json.data.name).toBe('Riga Open 2025 (WDSF)');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const listed = await get('/competitions?search=wdsf');
    expect(idsIn(listed.json)).toEqual([ids.riga]);
    expect(xCache(await get('/dancers'))).toBe('HIT');
  });

  it('invalidates a registry listing on its own writes only', async () => {
    await get('/judges');
    await get('/competitions');
    expect(xCache(await get('/registry/filters'))).toBe('MISS');
    expect(xCache(await get('/registry/filters'))).toBe('HIT');
    histories.anna.at('2025-06-14T09:40:00Z', 'person.role_details_changed', { role: 'dancer', changes: { danceClass: 6 } });
    await database.project(histories.anna.events.slice(-1), NOW);
    await afterFreshnessBound();
    const dancers = await get('/dancers?danceClass=6');
    expect(xCache(dancers)).toBe('MISS');
    expectMatchesSchema(dancers.json, DancerListEnvelope);
    expect(dancers.json.data).toHaveLength(1);
    expect(xCache(await get('/competitions'))).toBe('HIT');
    expect(xCache(await get('/judges'))).toBe('HIT'); // same registry scope, another listing
    expect(xCache(await get('/registry/filters'))).toBe('MISS');
  });

  it('answers 304 on a hit and on a miss, keeping the headers; HEAD matches GET without a body', async () => {
    const first = await get('/filters');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    const hit = await get('/filters', { 'If-None-Match': etag });
    expect(hit.status).toBe(304);
    expect(hit.text).toBe('');
    expect(xCache(hit)).toBe('HIT');
    expect(hit.headers.get('cache-control')).toBe('public, max-age=300');
    expect(hit.headers.get('etag')).toBe(etag);
    expect(hit.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const other = await startApi(database.db, NOW);
    try {
      const miss = await other.request('/api/v1/filters', { headers: { 'If-None-Match': `"nope", ${etag}` } });
      expect(miss.status).toBe(304);
      expect(xCache(miss)).toBe('MISS');
      const head = await other.request('/api/v1/competitions?limit=3', { method: 'HEAD' });
      const full = await other.request('/api/v1/competitions?limit=3');
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.get('etag')).toBe(full.headers.get('etag'));
      expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect([xCache(head), xCache(full)]).toEqual(['MISS', 'HIT']);
    } finally {
      await other.close();
    }
  });

  it('sets Cache-Control per endpoint, and no-store with X-Cache BYPASS for updatedSince', async () => {
    const ttl: Array<[string, number]> = [
      ['/competitions', 60],
      [`/competitions/${ids.riga}`, 60],
      ['/competitions/riga-open-2025/categories', 300],
      ['/filters', 300],
      ['/dancers', 120],
      ['/coaches', 120],
      ['/judges', 120],
      ['/clubs', 120],
      [`/clubs/${histories.aurora.stream.aggregateId}`, 120],
      ['/registry/filters', 300],
      ['/openapi.json', 300],
    ];
    for (const [path, seconds] of ttl) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe(`public, max-age=${seconds}`);
    }
    for (let i = 0; i < 2; i++) {
      const sync = await get('/competitions?updatedSince=2025-01-01T00:00:00Z');
      expect(sync.status).toBe(200);
      expectMatchesSchema(sync.json, CompetitionListEnvelope);
      expect(sync.headers.get('cache-control')).toBe('no-store');
      expect(xCache(sync)).toBe('BYPASS');
    }
  });
});

describe('HTTP edges', () => {
  it('answers 405 with Allow, unknown paths 404, both in the envelope', async () => {
    const post = await api.request('/api/v1/competitions', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expectMatchesSchema(post.json, ErrorEnvelope);
    expect(post.json.error.type).toBe('METHOD_NOT_ALLOWED');
    for (const path of ['/api', '/api/v1/nope', '/api/v2/competitions', '/competitions', '/api/v1/competitions/riga-open-2025/entries']) {
      const res = await api.request(path);
      expect(res.status, path).toBe(404);
      expect(res.json).toEqual({ error: { type: 'NOT_FOUND', message: 'No resource at this path.', details: [] } });
    }
  });

  it('serves the OpenAPI document with the public server URL', async () => {
    const res = await get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    expect(await new Validator().validate(res.json as Record<string, unknown>)).toMatchObject({ valid: true });
    expect(res.json.servers[0].url).toBe(API);
    expect(Object.keys(res.json.paths)).toContain('/competitions/{idOrSlug}/categories');
  });

  it('echoes a well-formed request id, replaces a bad one, allows any origin, keeps health outside the API', async () => {
    expect((await get('/filters', { 'X-Request-Id': 'abc.123:x-y' })).headers.get('x-request-id')).toBe('abc.123:x-y');
    const replaced = (await get('/filters', { 'X-Request-Id': 'bad id!' })).headers.get('x-request-id');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get('/filters')).headers.get('access-control-allow-origin')).toBe('*');
    const live = await api.request('/health/live');
    expect([live.status, live.json]).toEqual([200, { status: 'live' }]);
    expect(live.headers.get('x-ratelimit-limit')).toBeNull();
    expect((await api.request('/health/ready')).json).toEqual({ status: 'ready', checks: {} });
  });

  it('logs one line per request with method, path, status, ms, cache and request id', async () => {
    api.logLines.length = 0;
    await get('/competitions?limit=2', { 'X-Request-Id': 'log-test-1' });
    await get('/competitions?limit=2', { 'X-Request-Id': 'log-test-2' });
    await get('/nowhere', { 'X-Request-Id': 'log-test-3' });
    const lines = api.logLines.filter((l) => l.msg === 'request');
    expect(lines.map((l) => [l.method, l.path, l.status, l.cache, l.requestId])).toEqual([
      ['GET', '/api/v1/competitions', 200, 'MISS', 'log-test-1'],
      ['GET', '/api/v1/competitions', 200, 'HIT', 'log-test-2'],
      ['GET', '/api/v1/nowhere', 404, null, 'log-test-3'],
    ]);
    for (const line of lines) expect(typeof line.ms).toBe('number');
  });
});

describe('rate limit', () => {
  it('sends the rate-limit headers on 200, 304, 400, 404 and 429', async () => {
    const limited = await startApi(database.db, NOW, { RATE_LIMIT_MAX: '5' });
    try {
      const ok = await limited.request('/api/v1/registry/filters');
      const notModified = await limited.request('/api/v1/registry/filters', { headers: { 'If-None-Match': ok.headers.get('etag')! } });
      const bad = await limited.request('/api/v1/dancers?limit=0');
      const missing = await limited.request(`/api/v1/competitions/${ids.draft}`);
      const last = await limited.request('/api/v1/coaches');
      const refused = await limited.request('/api/v1/coaches');
      const replies = [ok, notModified, bad, missing, last, refused];
      expect(replies.map((r) => r.status)).toEqual([200, 304, 400, 404, 200, 429]);
      expect(replies.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0', '0']);
      for (const r of replies) {
        expect(r.headers.get('x-ratelimit-limit')).toBe('5');
        expect(r.headers.get('x-ratelimit-window')).toBe('60');
      }
      expect(refused.json.error.type).toBe('RATE_LIMIT_EXCEEDED');
      expectMatchesSchema(refused.json, ErrorEnvelope);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

      // The same requests as the operators' metrics count them.
      const text = await limited.metrics.metrics();
      expect(text).toContain('api_requests_total{route="coaches",method="GET",status="429"} 1');
      expect(text).toContain('api_requests_total{route="dancers",method="GET",status="400"} 1');
      expect(text).toContain('api_rate_limited_total 1');
      expect(text).toMatch(/api_cache_total\{outcome="MISS"\} [1-9]/);
      expect(text).toMatch(/api_request_duration_seconds_count\{route="registryFilters"\} 2/);
    } finally {
      await limited.close();
    }
  });
});

describe('read model', () => {
  it('answers 503 with Retry-After when the database cannot be reached', async () => {
    const unreachable = new MongoClient('mongodb://127.0.0.1:9/', { serverSelectionTimeoutMS: 300 });
    const app = createApp({
      config: loadConfig({}),
      logger: pino({ level: 'silent' }),
      readiness: () => Promise.resolve({ ready: false, checks: { mongo: false } }),
      db: unreachable.db('nowhere'),
    });
    const server = await serve(app);
    try {
      const res = await server.request('/api/v1/competitions');
      expect(res.status).toBe(503);
      expectMatchesSchema(res.json, ErrorEnvelope);
      expect(res.json.error.type).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('x-request-id')).not.toBeNull();
      expect((await server.request('/health/ready')).status).toBe(503);
    } finally {
      await server.close();
      await unreachable.close();
    }
  });

  it('sends API_QUERY_TIMEOUT_MS as maxTimeMS with every query, so the database stops what outlasts it', async () => {
    const monitored = new MongoClient(testServers().mongoUrl, { monitorCommands: true });
    const commands: Array<{ name: string; maxTimeMS: unknown }> = [];
    monitored.on('commandStarted', (event) => {
      if (
        ['find', 'aggregate', 'count', 'distinct'].includes(event.commandName) &&
        event.command[event.commandName] !== 'read_model_meta'
      ) {
        commands.push({ name: event.commandName, maxTimeMS: event.command.maxTimeMS });
      }
    });
    const limited = await startApi(monitored.db(database.db.databaseName), NOW, { API_QUERY_TIMEOUT_MS: '4321' });
    try {
      for (const path of [
        '/api/v1/dancers?limit=7',
        '/api/v1/competitions?limit=7',
        '/api/v1/filters',
        '/api/v1/registry/filters',
        `/api/v1/competitions/${ids.riga}`,
        `/api/v1/competitions/${ids.riga}/categories`,
        `/api/v1/clubs/${histories.aurora.stream.aggregateId}`,
      ]) {
        expect((await limited.request(path)).status, path).toBe(200);
      }
      expect(commands.length).toBeGreaterThanOrEqual(10);
      expect(commands.filter((c) => c.maxTimeMS !== 4321)).toEqual([]);
    } finally {
      await limited.close();
      await monitored.close();
    }
  });

  it('creates every planned index idempotently, recreating only a missing one', async () => {
    const names = projectionCollections(1);
    await database.db.collection(names.read.dancers).dropIndex('api_base_name_desc');
    await ensureReadModelIndexes(database.db, names); // the second run: recreates only what is missing
    await ensureReadModelIndexes(database.db, names);
    for (const listing of Object.keys(names.read) as ReadListing[]) {
      const existing = (await database.db.collection(names.read[listing]).listIndexes().toArray()).map((i) => String(i.name));
      for (const index of readCollectionIndexes(listing)) expect(existing, listing).toContain(index.name);
    }
    const links = await database.db.collection(names.memberLinks).listIndexes().toArray();
    expect(links.map((i): unknown => i.key)).toContainEqual({ kind: 1, subjectId: 1 });
    // The writer's changed-facts check loads a member's facts (loadMemberFacts).
    expect(links.map((i): unknown => i.key)).toContainEqual({ memberId: 1, memberRole: 1 });
    const dancers = await database.db.collection(names.read.dancers).listIndexes().toArray();
    // The plan's indexes plus _id, each once.
    expect(dancers).toHaveLength(readCollectionIndexes('dancers').length + 1);
  });

  it('follows a generation switch on a request arriving 50 ms after it', async () => {
    const store = new MongoProjectionStore(database.db, 2, { live: false });
    await ensureReadModelIndexes(database.db, projectionCollections(2));
    for (const event of calendarEvents.filter((e) => e.aggregateId === ids.tallinn)) await projectEvents([event], store, PROJECTION, NOW);
    expect((await get('/competitions')).json.meta.total).toBe(9);
    expect(await switchGeneration(database.db, 1, 2)).toBe(true);
    await afterFreshnessBound();
    const switched = await get('/competitions');
    expect(xCache(switched)).toBe('MISS');
    expect(idsIn(switched.json)).toEqual([ids.tallinn]);
    expect(await database.db.collection(collectionName('competitions', 2)).countDocuments()).toBe(1);
  });
});
