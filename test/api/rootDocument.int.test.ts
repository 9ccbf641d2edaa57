import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, LISTED_ENDPOINT_NAMES, RootDocument } from '../../schemas/api/index.ts';
import { PUBLIC_URL, openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { NOW, calendarEvents } from './calendarSeed.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';
import { clubs, registryEvents } from './registrySeed.ts';

// The root document over HTTP on the real database: what it lists, and that every link in it
// answers (a template once filled in with a resource that exists).

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_root');
  await database.project([...calendarEvents, ...registryEvents], NOW);
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

/** Values for the path parameters of templated links: resources the seed holds. */
const SAMPLE_PARAMETERS: Readonly<Record<string, string>> = { idOrSlug: 'riga-open-2025', id: clubs.aurora };

/** The path on our server of an absolute link on the public URL. */
function localPath(href: string): string {
  expect(href.startsWith(`${PUBLIC_URL}/`), href).toBe(true);
  return href.slice(PUBLIC_URL.length);
}

describe('GET /api/v1', () => {
  it('answers the root document at the base path, with and without the slash, like any endpoint', async () => {
    const bare = await api.request('/api/v1');
    const slash = await api.request('/api/v1/');
    for (const res of [bare, slash]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('etag')).toMatch(/^W\/"/);
      expect(res.headers.get('x-request-id')).not.toBeNull();
      expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expectMatchesSchema(res.json, RootDocument);
    }
    expect(slash.text).toBe(bare.text);
    const again = await api.request('/api/v1', { headers: { 'If-None-Match': bare.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
    const head = await api.request('/api/v1/', { method: 'HEAD' });
    expect([head.status, head.text]).toEqual([200, '']);
    const refused = await api.request('/api/v1?page=2');
    expect(refused.status).toBe(400);
    expect(refused.json.error.details).toEqual(['page: unknown parameter']);
    expect((await api.request('/api/v1', { method: 'POST' })).status).toBe(405);
  });

  it('lists every endpoint of the OpenAPI document with its method, path template, summary and public link', async () => {
    const root = (await api.request('/api/v1')).json as RootDocument;
    const openApi = (await api.request('/api/v1/openapi.json')).json as {
      paths: Record<string, { get: { summary: string } }>;
      info: { title: string; version: string };
    };
    expect(root.data.endpoints.map((e) => e.path)).toEqual(Object.keys(openApi.paths));
    expect(root.data.endpoints.map((e) => e.name)).toEqual(LISTED_ENDPOINT_NAMES);
    for (const endpoint of root.data.endpoints) {
      expect(endpoint.method).toBe('GET');
      expect(endpoint.summary).toBe(openApi.paths[endpoint.path]?.get.summary);
      expect(endpoint.href).toBe(`${PUBLIC_URL}/api/v1${endpoint.path}`);
      expect(endpoint.templated).toBe(endpoint.path.includes('{'));
    }
    expect(root.data).toMatchObject({ title: openApi.info.title, version: openApi.info.version });
    expect(root.links).toEqual({
      self: `${PUBLIC_URL}/api/v1/`,
      docs: `${PUBLIC_URL}/api/v1/docs`,
      openapi: `${PUBLIC_URL}/api/v1/openapi.json`,
    });
  });

  it('links only to what answers 200: each link as it is, each template once filled in', async () => {
    const root = (await api.request('/api/v1')).json as RootDocument;
    const links = [...Object.values(root.links), ...root.data.endpoints.map((e) => e.href)];
    for (const href of links) {
      const filled = href.replace(/\{(\w+)\}/g, (_match, name: string) => {
        const value = SAMPLE_PARAMETERS[name];
        if (value === undefined) throw new Error(`no sample value for {${name}} in ${href}`);
        return encodeURIComponent(value);
      });
      const res = await api.request(localPath(filled));
      expect(res.status, filled).toBe(200);
    }
    const docs = await api.request(localPath(root.links.docs));
    expect(docs.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(ENDPOINTS.referencePage.mediaType).toBe('text/html');
  });
});
