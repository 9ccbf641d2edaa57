import { describe, expect, it } from 'vitest';
import { ENDPOINTS, ENDPOINT_NAMES } from '../../schemas/api/endpoints.ts';
import { loadConfig } from '../../services/config/index.ts';
import { apiUrls } from './apiUrls.ts';
import { rootDocument } from './rootDocument.ts';

const urls = apiUrls(loadConfig({ API_PUBLIC_URL: 'https://api.example.org/' }));
const doc = rootDocument({ urls, title: 'The API', version: '1.2.3' });

describe('rootDocument', () => {
  it("lists every endpoint but the reference page's files, in catalogue order, with GET and its summary", () => {
    expect(doc.data.endpoints.map((e) => e.name)).toEqual(ENDPOINT_NAMES.filter((name) => name !== 'referencePageAsset'));
    for (const endpoint of doc.data.endpoints) {
      const definition = ENDPOINTS[endpoint.name as keyof typeof ENDPOINTS];
      expect(endpoint).toMatchObject({ method: 'GET', path: definition.path, summary: definition.summary });
    }
    expect(doc.data).toMatchObject({ title: 'The API', version: '1.2.3' });
  });

  it('links each on the public URL, marking the ones with path parameters as templates', () => {
    const byName = new Map(doc.data.endpoints.map((e) => [e.name, e]));
    expect(byName.get('competitions')).toMatchObject({ href: 'https://api.example.org/api/v1/competitions', templated: false });
    expect(byName.get('competition')).toMatchObject({ href: 'https://api.example.org/api/v1/competitions/{idOrSlug}', templated: true });
    expect(byName.get('club')).toMatchObject({ href: 'https://api.example.org/api/v1/clubs/{id}', templated: true });
    expect(byName.get('root')).toMatchObject({ href: 'https://api.example.org/api/v1/', templated: false });
    expect(doc.links).toEqual({
      self: 'https://api.example.org/api/v1/',
      docs: 'https://api.example.org/api/v1/docs',
      openapi: 'https://api.example.org/api/v1/openapi.json',
    });
  });
});
