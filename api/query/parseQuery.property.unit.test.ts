import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseQuery } from './parseQuery.ts';
import { parameterLabel } from './parameterLabel.ts';
import { ENDPOINTS, ENDPOINT_NAMES } from '../../schemas/api/endpoints.ts';

// Random query strings for every endpoint: parseQuery never throws; it either accepts or
// answers at least one detail, each starting with the label of a parameter of the query
// followed by `: `, at most one per parameter.

const knownNames = [...new Set(ENDPOINT_NAMES.flatMap((name) => Object.keys(ENDPOINTS[name].query.properties)))];
const nameArb = fc.oneof(
  fc.constantFrom(...knownNames, 'cityId', 'regionId', 'status', '__proto__', 'constructor', 'toString'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
const valueArb = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '100',
    '101',
    'true',
    'false',
    'open,completed',
    'REGISTRY,BUFFER',
    'constructor',
    '__proto__',
    '2024-02-29',
    '2025-01-01T00:00:00Z',
    ' , ',
    '1e2',
    '%',
    '%zz',
    '+',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.integer().map(String),
);
const pairArb = fc
  .tuple(nameArb, valueArb, fc.boolean())
  .map(([name, value, encode]) => (encode ? `${encodeURIComponent(name)}=${encodeURIComponent(value)}` : `${name}=${value}`));
const queryArb = fc.oneof(
  fc.array(pairArb, { maxLength: 8 }).map((pairs) => pairs.join('&')),
  fc.string({ maxLength: 60 }),
);

describe('parseQuery (property)', () => {
  it('never throws and always answers ok or well-formed details', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ENDPOINT_NAMES), queryArb, (endpoint, query) => {
        const result = parseQuery(endpoint, query);
        if (result.ok) return;
        const labels = [...new Set([...new URLSearchParams(query).keys()].map(parameterLabel))];
        expect(result.details.length).toBeGreaterThanOrEqual(1);
        const prefixes = result.details.map((detail) => labels.find((label) => detail.startsWith(`${label}: `)));
        expect(prefixes).not.toContain(undefined);
        expect(new Set(prefixes).size).toBe(prefixes.length);
        for (const detail of result.details) expect(detail).not.toMatch(/\[object |\[native code\]|undefined$/);
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts every query built from valid values and reports nothing for them', () => {
    const validArb = fc.record(
      {
        page: fc.integer({ min: 1, max: 10_000 }).map(String),
        limit: fc.integer({ min: 1, max: 100 }).map(String),
        status: fc.subarray(['open', 'completed'], { minLength: 1 }).map((items) => items.join(',')),
        registrationOpen: fc.constantFrom('true', 'false'),
        search: fc.string({ minLength: 2, maxLength: 10 }).filter((text) => text.trim().length >= 2),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(validArb, (values) => {
        const query = new URLSearchParams(values).toString();
        expect(parseQuery('competitions', query).ok).toBe(true);
      }),
    );
  });
});
