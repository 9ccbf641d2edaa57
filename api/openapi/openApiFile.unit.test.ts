import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../services/config/index.ts';
import { OPENAPI_FILE, servedOpenApi } from './openApiFile.ts';

// openapi.json at the repository's root is the document the API serves: a change to an endpoint,
// a schema, a header or an error response fails here until `npm run openapi` rewrites the file.

const committed = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { servers: { url: string }[]; info: { version: string } };

describe('openapi.json', () => {
  it('is the document the API serves (regenerate with `npm run openapi` and commit it)', () => {
    expect(committed, 'openapi.json is out of date: run `npm run openapi` and commit openapi.json').toEqual(servedOpenApi());
  });

  it('is served with the deployment’s own URLs and nothing else changed', () => {
    const env = { API_PUBLIC_URL: 'https://api.federation.example', SITE_URL: 'https://www.federation.example' };
    const deployed = JSON.stringify(servedOpenApi(env));
    const defaults = loadConfig({}).api;
    const expected = JSON.stringify(committed)
      .replaceAll(defaults.publicUrl, env.API_PUBLIC_URL)
      .replaceAll(defaults.siteUrl, env.SITE_URL);
    expect(JSON.parse(deployed)).toEqual(JSON.parse(expected));
    expect(committed.servers.map((s) => s.url)).toEqual([`${defaults.publicUrl}/api/v1`]);
  });

  it('carries the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(committed.info.version).toBe(pkg.version);
  });
});
