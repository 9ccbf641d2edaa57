import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildOpenApi } from './buildOpenApi.ts';
import { ENDPOINTS, ENDPOINT_NAMES, LISTED_ENDPOINT_NAMES } from '../../schemas/api/endpoints.ts';
import { ERROR_CODES, ERROR_STATUS } from '../http/apiError.ts';
import { EXPOSED_HEADERS } from '../http/cors.ts';
import { parseQuery } from '../query/parseQuery.ts';
import packageJson from '../../package.json' with { type: 'json' };

// The parts of the document the tests read.
interface Schema {
  type?: string;
  enum?: string[];
  items?: Schema;
  required?: string[];
  properties?: Record<string, Schema>;
  description?: string;
  $ref?: string;
}
interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  description: string;
  schema: Schema;
  style?: string;
  explode?: boolean;
}
interface Response {
  $ref?: string;
  description: string;
  headers: Record<string, unknown>;
  content?: Record<string, { schema: Schema; example?: { error: { type: string } } }>;
}
interface Operation {
  parameters: Parameter[];
  responses: Record<string, Response>;
}
interface Document {
  info: { version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Response>; headers: Record<string, unknown> };
}

const doc = buildOpenApi({ serverUrl: 'https://api.example.org/api/v1' }) as unknown as Document;

function resolve<T extends { $ref?: string }>(node: T): T {
  if (typeof node.$ref !== 'string') return node;
  const target = node.$ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], doc);
  return resolve(target as T);
}

function operation(path: string, method = 'get'): Operation {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
}

function jsonSchema(response: Response | undefined): Schema {
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) throw new Error('no JSON schema');
  return schema;
}

describe('buildOpenApi', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(buildOpenApi({ serverUrl: 'https://api.example.org/api/v1' }));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("carries package.json's version and the server with the base path", () => {
    expect(doc.info.version).toBe(packageJson.version);
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'https://api.example.org/api/v1' })]);
    expect((buildOpenApi() as unknown as Document).servers[0]?.url).toBe('/api/v1');
  });

  it('describes every endpoint with GET and HEAD', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(LISTED_ENDPOINT_NAMES.map((name) => ENDPOINTS[name].path).sort());
    for (const path of Object.keys(doc.paths)) {
      expect(Object.keys(doc.paths[path] ?? {}).sort()).toEqual(['get', 'head']);
      const mediaType = LISTED_ENDPOINT_NAMES.map((name) => ENDPOINTS[name]).find((d) => d.path === path)?.mediaType;
      if (mediaType === undefined) expect(jsonSchema(operation(path).responses['200'])).toBeDefined();
      else expect(operation(path).responses['200']?.content?.[mediaType]?.schema).toBeDefined();
      expect(operation(path, 'head').responses['200']?.content).toBeUndefined();
    }
  });

  it("describes every endpoint of the catalogue but the reference page's files, the root and the page among them", () => {
    expect(LISTED_ENDPOINT_NAMES).toEqual(ENDPOINT_NAMES.filter((name) => name !== 'referencePageAsset'));
    expect(Object.keys(doc.paths)).not.toContain('/docs/assets/{file}');
    const root = resolve(jsonSchema(operation('/').responses['200']));
    expect(root.required).toEqual(['data', 'links']);
    expect(root.properties?.data?.properties?.endpoints?.items).toEqual({ $ref: '#/components/schemas/RootEndpoint' });
    expect(operation('/docs').responses['200']?.content?.['text/html']?.schema.type).toBe('string');
  });

  it('lists every query parameter with its schema and a description', () => {
    for (const name of LISTED_ENDPOINT_NAMES) {
      const definition = ENDPOINTS[name];
      const documented = operation(definition.path)
        .parameters.map(resolve)
        .filter((p) => p.in === 'query');
      expect(documented.map((p) => p.name)).toEqual(Object.keys(definition.query.properties));
      for (const parameter of documented) {
        expect(parameter.description.length, `${name}.${parameter.name}`).toBeGreaterThan(5);
        expect(parameter.schema.type).toBeDefined();
        if (parameter.schema.type === 'array') expect(parameter).toMatchObject({ style: 'form', explode: false });
      }
    }
  });

  it('states the decisions in the parameter descriptions', () => {
    const param = (path: string, name: string) => operation(path).parameters.find((p) => p.name === name);
    expect(param('/competitions', 'city')?.description).toMatch(/prefix/);
    expect(param('/clubs', 'city')?.description).toMatch(/any location of the club, branches included/);
    expect(param('/clubs', 'country')?.description).toMatch(/branches included/);
    expect(param('/competitions', 'search')?.description).toMatch(/diacritic-insensitive.*at least 2 characters after trimming/is);
    expect(param('/dancers', 'hasPartner')?.description).toMatch(/Exactly `true` or `false`/);
    expect(param('/dancers', 'danceClass')?.description).toMatch(/Decimal digits only/);
    expect(doc.info.description).toMatch(/unknown parameter/);
    expect(doc.info.description).toMatch(/given more than once/);
    expect(doc.info.description).toMatch(/cityId: unknown parameter \(removed; use city\)/);
  });

  it('documents the values parseQuery accepts for every enum parameter', () => {
    for (const name of LISTED_ENDPOINT_NAMES) {
      const definition = ENDPOINTS[name];
      for (const parameter of operation(definition.path).parameters.map(resolve)) {
        const values = parameter.in === 'query' ? (parameter.schema.enum ?? parameter.schema.items?.enum) : undefined;
        if (!values) continue;
        for (const value of values)
          expect(parseQuery(name, `${parameter.name}=${value}`).ok, `${name} ${parameter.name}=${value}`).toBe(true);
        expect(parseQuery(name, `${parameter.name}=not-a-value`).ok).toBe(false);
      }
    }
  });

  it('documents every error code with its status and an example envelope', () => {
    for (const code of ERROR_CODES) {
      const response = doc.components.responses[code];
      expect(response?.description).toContain(`${ERROR_STATUS[code]} ${code}`);
      expect(response?.content?.['application/json']?.example?.error.type).toBe(code);
      const usedBy = Object.keys(doc.paths).some(
        (path) => operation(path).responses[String(ERROR_STATUS[code])]?.$ref === `#/components/responses/${code}`,
      );
      expect(usedBy, code).toBe(true);
    }
    expect(doc.components.schemas.Error?.properties?.error?.properties?.type?.description).toContain('SERVICE_UNAVAILABLE');
  });

  it('answers 400, 405, 429, 500 and 503 everywhere, 304 but on the feed, 404 on the detail endpoints and 410 on the feed', () => {
    for (const name of LISTED_ENDPOINT_NAMES) {
      const { responses } = operation(ENDPOINTS[name].path);
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '400', '405', '429', '500', '503']));
      expect('304' in responses).toBe(ENDPOINTS[name].stream === undefined);
      expect('404' in responses).toBe(ENDPOINTS[name].answersNotFound);
      expect('410' in responses).toBe(ENDPOINTS[name].answersGone === true);
    }
    expect(Object.keys(operation('/changes').responses['200']?.content ?? {})).toEqual(['application/json', 'text/event-stream']);
    expect('404' in operation('/competitions/{idOrSlug}').responses).toBe(true);
    expect('404' in operation('/clubs/{id}').responses).toBe(true);
  });

  it('declares the headers of each response', () => {
    const get = operation('/competitions');
    const headersOf = (response: Response | undefined) => Object.keys(response ? resolve(response).headers : {});
    expect(headersOf(get.responses['200'])).toEqual(
      expect.arrayContaining([
        'ETag',
        'Cache-Control',
        'X-Cache',
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Window',
        'RateLimit',
        'RateLimit-Policy',
      ]),
    );
    expect(headersOf(get.responses['304'])).toEqual(expect.arrayContaining(['ETag', 'X-RateLimit-Remaining', 'X-Request-Id']));
    expect(headersOf(get.responses['429'])).toContain('Retry-After');
    expect(headersOf(get.responses['503'])).toContain('Retry-After');
    expect(headersOf(get.responses['405'])).toContain('Allow');
    for (const header of EXPOSED_HEADERS) expect(doc.components.headers[header], header).toBeDefined();
  });

  it('refers to named components instead of repeating them', () => {
    const list = jsonSchema(operation('/competitions').responses['200']);
    expect(list.properties?.data?.items).toEqual({ $ref: '#/components/schemas/Competition' });
    expect(list.properties?.meta).toEqual({ $ref: '#/components/schemas/PageMeta' });
    expect(list.required).toEqual(['data', 'meta', 'links']);
    expect(doc.components.schemas.PageMeta?.required).toContain('hasPreviousPage');
  });
});
