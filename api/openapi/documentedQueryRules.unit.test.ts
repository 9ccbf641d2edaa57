import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import { buildOpenApi } from './buildOpenApi.ts';
import { ENDPOINTS, LISTED_ENDPOINT_NAMES } from '../../schemas/api/endpoints.ts';
import type { EndpointName } from '../../schemas/api/endpoints.ts';
import { parseQuery } from '../query/parseQuery.ts';

// The published query schemas against what the server accepts, rule by rule where a fuzzer
// found them apart: every integer states the largest value accepted, no list claims its items
// unique (repeats are ignored), and free text is described as it is sent, before trimming.

interface ParameterSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  enum?: string[];
  uniqueItems?: boolean;
  items?: ParameterSchema;
  format?: string;
}
interface QueryParameter {
  name: string;
  in: string;
  description: string;
  schema: ParameterSchema;
}
interface Document {
  paths: Record<string, { get: { parameters: QueryParameter[] } }>;
}

const doc = buildOpenApi() as unknown as Document;

function queryParameters(endpoint: EndpointName): QueryParameter[] {
  const path = doc.paths[ENDPOINTS[endpoint].path];
  if (!path) throw new Error(`no path for ${endpoint}`);
  return path.get.parameters.filter((parameter) => parameter.in === 'query');
}

const everyParameter = LISTED_ENDPOINT_NAMES.flatMap((endpoint) => queryParameters(endpoint).map((parameter) => ({ endpoint, parameter })));
const ofType = (type: string) => everyParameter.filter(({ parameter }) => parameter.schema.type === type);

describe("the documented query rules are the server's", () => {
  it('finds integers, lists and free text to check', () => {
    expect(ofType('integer').map(({ endpoint, parameter }) => `${endpoint}.${parameter.name}`)).toEqual(
      expect.arrayContaining([
        'competitions.page',
        'competitions.countryId',
        'dancers.danceClass',
        'coaches.highestClass',
        'judges.judgeCategory',
        'competitionCategories.level',
      ]),
    );
    expect(ofType('array').length).toBeGreaterThan(8);
    expect(ofType('string').filter(({ parameter }) => parameter.schema.minLength !== undefined).length).toBeGreaterThan(8);
  });

  it('states the maximum of every integer: it is accepted and the next one answers 400', () => {
    for (const { endpoint, parameter } of ofType('integer')) {
      const { minimum, maximum } = parameter.schema;
      const label = `${endpoint}.${parameter.name}`;
      expect(maximum, label).toBeTypeOf('number');
      expect(minimum, label).toBeTypeOf('number');
      expect(parseQuery(endpoint, `${parameter.name}=${String(maximum)}`).ok, label).toBe(true);
      expect(parseQuery(endpoint, `${parameter.name}=${String(BigInt(maximum ?? 0) + 1n)}`).ok, label).toBe(false);
      expect(parseQuery(endpoint, `${parameter.name}=${String(minimum)}`).ok, label).toBe(true);
      if ((minimum ?? 0) > 0) expect(parseQuery(endpoint, `${parameter.name}=${String((minimum ?? 0) - 1)}`).ok, label).toBe(false);
    }
  });

  it('never says uniqueItems of a list, whose repeated items the server accepts', () => {
    for (const { endpoint, parameter } of ofType('array')) {
      const label = `${endpoint}.${parameter.name}`;
      expect(parameter.schema.uniqueItems, label).toBeUndefined();
      const item = parameter.schema.items?.enum?.[0] ?? 'cup';
      expect(parseQuery(endpoint, `${parameter.name}=${item},${item}`).ok, label).toBe(true);
    }
  });

  it('states the cross-field rule of a day range in both parameters', () => {
    for (const endpoint of ['competitions', 'competitionsCalendar'] as const) {
      for (const name of ['dateFrom', 'dateTo']) {
        const parameter = queryParameters(endpoint).find((p) => p.name === name);
        expect(parameter?.description, `${endpoint}.${name}`).toMatch(/`dateTo` must not be before `dateFrom`: otherwise 400/);
      }
      expect(parseQuery(endpoint, 'dateFrom=2025-01-02&dateTo=2025-01-01').ok).toBe(false);
      expect(parseQuery(endpoint, 'dateFrom=2025-01-02&dateTo=2025-01-02').ok).toBe(true);
    }
  });

  it('describes free text as sent: the raw value matches its schema exactly when the server accepts it', () => {
    const ajv = new Ajv({ strict: true });
    const texts = ofType('string').filter(
      ({ parameter }) => parameter.schema.minLength !== undefined && parameter.schema.format === undefined && !parameter.schema.enum,
    );
    const checks = texts.map(({ endpoint, parameter }) => {
      const { minLength, pattern } = parameter.schema;
      return { endpoint, name: parameter.name, validate: ajv.compile({ type: 'string', minLength, pattern }) };
    });
    // Letters and every kind of whitespace trim removes, plus ones it keeps (U+0085, U+200B, U+001C).
    const char = fc.constantFrom(
      'a',
      'Ā',
      ' ',
      '\t',
      '\n',
      '\v',
      '\f',
      '\r',
      '\u00a0',
      '\u1680',
      '\u2003',
      '\u2028',
      '\u202f',
      '\u3000',
      '\ufeff',
      '\u0085',
      '\u200b',
      '\u001c',
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...checks),
        fc.array(char, { minLength: 1, maxLength: 5 }).map((chars) => chars.join('')),
        ({ endpoint, name, validate }, text) => {
          const accepted = parseQuery(endpoint, `${name}=${encodeURIComponent(text)}`).ok;
          expect(validate(text), `${endpoint}.${name}=${JSON.stringify(text)}`).toBe(accepted);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
