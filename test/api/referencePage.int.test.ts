import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/createApp.ts';
import { send } from '../../api/http/harness.test.ts';
import { REFERENCE_PAGE_SCRIPT } from '../../api/resources/referencePageScript.ts';
import { changesExampleScript } from '../../api/resources/changesExample.ts';
import { ErrorEnvelope, REFERENCE_PAGE_ASSET_FILES } from '../../schemas/api/index.ts';
import { openDatabase, startApi, type ApiServer, type Database, type Reply } from './apiHarness.ts';
import { NOW } from './calendarSeed.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';

// The reference page and its files over HTTP: headers (the Content-Security-Policy word for
// word), media types, caching, and that nothing but the allow-listed files can be read.

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  png: 'image/png',
};
const NOT_FOUND = { error: { type: 'NOT_FOUND', message: 'No resource at this path.', details: [] } };

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_reference_page');
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

function expectPipelineHeaders(res: Reply): void {
  expect(res.headers.get('x-request-id')).not.toBeNull();
  expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
}

describe('GET /api/v1/docs', () => {
  it('answers our HTML with the Content-Security-Policy, nosniff, a 300 s cache and an ETag, on a miss, a hit and a 304', async () => {
    const miss = await api.request('/api/v1/docs');
    expect(miss.status).toBe(200);
    expect(miss.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(miss.headers.get('content-security-policy')).toBe(CSP);
    expect(miss.headers.get('x-content-type-options')).toBe('nosniff');
    expect(miss.headers.get('cache-control')).toBe('public, max-age=300');
    expect(miss.headers.get('x-cache')).toBe('MISS');
    expect(miss.text).toMatch(/^<!doctype html>/);
    expectPipelineHeaders(miss);
    const etag = miss.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"/);

    const hit = await api.request('/api/v1/docs');
    expect([hit.headers.get('x-cache'), hit.headers.get('content-type'), hit.headers.get('content-security-policy'), hit.text]).toEqual([
      'HIT',
      'text/html; charset=utf-8',
      CSP,
      miss.text,
    ]);
    const notModified = await api.request('/api/v1/docs', { headers: { 'If-None-Match': etag } });
    expect([notModified.status, notModified.text, notModified.headers.get('content-security-policy')]).toEqual([304, '', CSP]);
    const head = await api.request('/api/v1/docs', { method: 'HEAD' });
    expect([head.status, head.text, head.headers.get('content-security-policy')]).toEqual([200, '', CSP]);
  });

  it('loads only files that answer from this origin, and points Swagger UI at the served OpenAPI document', async () => {
    const page = await api.request('/api/v1/docs');
    const urls = [...page.text.matchAll(/(?:src|href|data-openapi-url)="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(urls.length).toBeGreaterThanOrEqual(5);
    for (const url of urls) {
      expect(url, 'same origin, no CDN').toMatch(/^\/api\/v1\//);
      expect((await api.request(url)).status, url).toBe(200);
    }
    expect(page.text).toContain('data-openapi-url="/api/v1/openapi.json"');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('answers errors as every endpoint does: 400 for a query, 405 for another method, no policy on them', async () => {
    const bad = await api.request('/api/v1/docs?url=https://evil.example/openapi.json');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      error: { type: 'INVALID_REQUEST', message: 'One or more query parameters are invalid.', details: ['url: unknown parameter'] },
    });
    expect(bad.headers.get('content-security-policy')).toBeNull();
    expect((await api.request('/api/v1/docs', { method: 'POST' })).status).toBe(405);
  });
});

describe('GET /api/v1/docs/assets/{file}', () => {
  it('serves each allow-listed file with its media type, a one-day cache, an ETag and 304s', async () => {
    const dist = getAbsoluteFSPath();
    for (const file of REFERENCE_PAGE_ASSET_FILES) {
      const res = await fetch(`${api.origin}/api/v1/docs/assets/${file}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toBe(MEDIA_TYPES[file.split('.').pop() ?? '']);
      expect(res.headers.get('cache-control'), file).toBe('public, max-age=86400');
      expect(res.headers.get('x-content-type-options'), file).toBe('nosniff');
      expect(res.headers.get('x-request-id'), file).not.toBeNull();
      // Our two scripts are ours; every other file is swagger-ui-dist's, byte for byte.
      const ours: Record<string, string> = {
        'referencePage.js': REFERENCE_PAGE_SCRIPT,
        'changesExample.js': changesExampleScript('/api/v1/changes'),
      };
      const expected = file in ours ? Buffer.from(ours[file]!) : readFileSync(join(dist, file));
      expect(bytes.equals(expected), file).toBe(true);
      const etag = res.headers.get('etag') ?? '';
      expect(etag, file).toMatch(/^W\/"/);
      const again = await api.request(`/api/v1/docs/assets/${file}`, { headers: { 'If-None-Match': etag } });
      expect([again.status, again.headers.get('x-cache')], file).toEqual([304, 'HIT']);
    }
  });

  it('answers 404 in the error envelope for any other file, even one swagger-ui-dist holds', async () => {
    for (const file of [
      'index.html',
      'swagger-ui.js',
      'oauth2-redirect.html',
      'package.json',
      'swagger-ui-bundle.js.map',
      'SWAGGER-UI.CSS',
      'nope.css',
    ]) {
      const res = await api.request(`/api/v1/docs/assets/${file}`);
      expect(res.status, file).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expectMatchesSchema(res.json, ErrorEnvelope);
      expect(res.json, file).toEqual(NOT_FOUND);
    }
  });

  it('answers 404 in the error envelope to path traversal, however it is spelled', async () => {
    // Sent as written (fetch would resolve `..` before sending): these reach the server raw.
    const app = createApp({
      config: api.config,
      logger: pino({ level: 'silent' }),
      readiness: () => Promise.resolve({ ready: true, checks: {} }),
      db: database.db,
      clock: () => NOW.getTime(),
    });
    const attempts = [
      '/api/v1/docs/assets/../../../../package.json',
      '/api/v1/docs/assets/..%2F..%2F..%2F..%2Fpackage.json',
      '/api/v1/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/api/v1/docs/assets/%252e%252e%252fpackage.json',
      '/api/v1/docs/assets/..%5C..%5Cpackage.json',
      '/api/v1/docs/assets/%2Fetc%2Fpasswd',
      '/api/v1/docs/assets/swagger-ui.css%00.png',
      '/api/v1/docs/assets/swagger-ui.css/../../../package.json',
      '/api/v1/docs/assets/./swagger-ui.css',
      '/api/v1/docs/assets/',
      '/api/v1/docs/assets',
      '/api/v1/docs/assets/%ZZ',
    ];
    for (const path of attempts) {
      const res = await send(app, { path });
      expect(res.status, path).toBe(404);
      expect(res.json, path).toEqual(NOT_FOUND);
      expect(res.text, path).not.toMatch(/"name"|root:/);
    }
  });
});
