import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../api/query/index.ts';
import { ENDPOINTS, type EndpointName } from '../../schemas/api/endpoints.ts';
import { dataEndpoints, endpointRequests, filterCombinations, parameterVariants, type MatrixValues } from './apiRequestMatrix.ts';

const ID = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const values: MatrixValues = {
  pathValues: { idOrSlug: [ID, 'a-slug'], id: [ID] },
  textCandidates: ['Rīga', 'ri'],
  id: ID,
  today: '2026-01-31',
};

describe('filterCombinations', () => {
  it('none, each alone with each variant, every pair in every variant, all but one, all', () => {
    const combos = filterCombinations([
      { name: 'a', variants: ['1', '2'] },
      { name: 'b', variants: ['x'] },
      { name: 'c', variants: ['y'] },
    ]).map((c) => c.map(([k, v]) => `${k}=${v}`).join('&'));
    expect(combos).toEqual([
      '',
      'a=1',
      'a=2',
      'b=x',
      'c=y',
      'a=1&b=x',
      'a=2&b=x',
      'a=1&c=y',
      'a=2&c=y',
      'b=x&c=y',
      'b=x&c=y',
      'a=1&c=y',
      'a=1&b=x',
      'a=1&b=x&c=y',
    ]);
  });
});

describe('parameterVariants', () => {
  it('derives values from the schema: each enum value, one and all list items, both booleans, a day, an instant', () => {
    expect(parameterVariants('competitions', 'period', values)).toEqual(['upcoming', 'ongoing', 'past']);
    expect(parameterVariants('competitions', 'status', values)).toEqual(['open', 'open,completed']);
    expect(parameterVariants('competitions', 'registrationOpen', values)).toEqual(['true', 'false']);
    expect(parameterVariants('competitions', 'dateFrom', values)).toEqual(['2026-01-31']);
    expect(parameterVariants('competitions', 'updatedSince', values)).toEqual(['2026-01-31T00:00:00Z']);
  });

  it('gives a text parameter every candidate its schema accepts, an id parameter the id, and fails when none is accepted', () => {
    expect(parameterVariants('dancers', 'search', values)).toEqual(['Rīga', 'ri']);
    expect(parameterVariants('dancers', 'clubId', values)).toEqual([ID]);
    expect(parameterVariants('competitions', 'type', values)).toEqual(['ri']);
    expect(() => parameterVariants('competitions', 'type', { ...values, textCandidates: ['Rīga'] })).toThrow(
      /no accepted value for competitions\?type/,
    );
    expect(() => parameterVariants('dancers', 'clubId', { ...values, id: 'not-a-uuid' })).toThrow(/no accepted value for dancers\?clubId/);
  });
});

describe('endpointRequests', () => {
  it('crosses every filter of every data endpoint with every sort and order, and the API accepts each request', () => {
    for (const endpoint of dataEndpoints()) {
      const requests = endpointRequests(endpoint, values);
      const properties = Object.keys(ENDPOINTS[endpoint].query.properties);
      for (const request of requests) {
        const query = new URL(request, 'http://x').search;
        expect(parseQuery(endpoint, query).ok, request).toBe(true);
      }
      const sorts = (ENDPOINTS[endpoint].query.properties.sort as { enum?: string[] } | undefined)?.enum;
      const orderings = sorts ? sorts.flatMap((sort) => ['asc', 'desc'].map((order) => ({ sort, order }))) : [{}];
      for (const filter of properties.filter((p) => !['sort', 'order', 'page', 'limit'].includes(p))) {
        for (const ordering of orderings) {
          const alone = requests.some((r) => {
            const params = new URL(r, 'http://x').searchParams;
            return (
              [...params.keys()].sort().join() === [filter, ...Object.keys(ordering)].sort().join() &&
              Object.entries(ordering).every(([k, v]) => params.get(k) === v)
            );
          });
          expect(alone, `${endpoint}: ${filter} alone with ${JSON.stringify(ordering)}`).toBe(true);
        }
      }
    }
  });

  it('requests each value of a path parameter and refuses a path parameter without values', () => {
    expect(endpointRequests('competition', values)).toEqual([`/competitions/${ID}`, '/competitions/a-slug']);
    expect(() => endpointRequests('club', { ...values, pathValues: {} })).toThrow(/no value for path parameter \{id\}/);
  });

  it('leaves out only the endpoints that never read the database', () => {
    const left = (Object.keys(ENDPOINTS) as EndpointName[]).filter((name) => !dataEndpoints().includes(name));
    expect(left.every((name) => ENDPOINTS[name].listings.length === 0)).toBe(true);
    expect(dataEndpoints()).toContain('registryFilters');
  });
});
