import type { Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../schemas/api/endpoints.ts';
import { parseQuery } from '../query/index.ts';
import { BASE_SHAPE, LISTING_PLANS, readCollectionIndexes, type ReadListing } from '../../services/readModel/indexPlan.ts';
import { SERVED_FORMATS } from '../../services/readModel/readModelFormat.ts';
import { CURRENT_LAYOUT, layoutOf } from '../../services/readModel/readModelLayout.ts';
import { clubListQuery } from './clubs.ts';
import { coachListQuery } from './coaches.ts';
import { competitionListQuery } from './competitions.ts';
import { dancerListQuery } from './dancers.ts';
import type { ListingQuery } from './filterBuilder.ts';
import { judgeListQuery } from './judges.ts';
import { readPage } from './readPage.ts';
import { countryIdKey } from '../../services/readModel/index.ts';
import type { ReadModelView } from '../readModelSource.ts';

// The resource modules must run every request in a shape of the index plan: the hinted index
// exists in the plan, the Mongo sort is that index's sort, and the leading index field is
// really constrained by the filter sent (a module with its own table would fail here).

const UUID = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const SAMPLES: Record<string, string> = {
  search: 'riga',
  country: 'LV',
  countryId: '117',
  city: 'Ri',
  type: 'international_open',
  registrationStatus: 'open',
  registrationOpen: 'true',
  period: 'upcoming',
  dateFrom: '2025-01-01',
  dateTo: '2025-12-31',
  updatedSince: '2025-01-01T00:00:00Z',
  registryState: 'REGISTRY,ARCHIVE',
  sex: 'MALE',
  clubId: UUID,
  coachId: UUID,
  danceClass: '4',
  hasPartner: 'false',
  highestClass: '8',
  judgeCategory: '2',
  position: 'judge',
  include: 'categories',
};
const STATUS: Record<string, string> = { competitions: 'open', dancers: 'ACTIVE', judges: 'INACTIVE' };
const BUILDERS: Record<ReadListing, (raw: string, format: number) => ListingQuery> = {
  competitions: (raw, format) => competitionListQuery(parsed('competitions', raw), '2025-06-14', layoutOf(format)!),
  dancers: (raw, format) => dancerListQuery(parsed('dancers', raw), layoutOf(format)!),
  coaches: (raw, format) => coachListQuery(parsed('coaches', raw), layoutOf(format)!),
  judges: (raw, format) => judgeListQuery(parsed('judges', raw), layoutOf(format)!),
  clubs: (raw, format) => clubListQuery(parsed('clubs', raw), layoutOf(format)!),
};

function parsed<E extends 'competitions' | 'dancers' | 'coaches' | 'judges' | 'clubs'>(endpoint: E, raw: string) {
  const result = parseQuery(endpoint, raw);
  if (!result.ok) throw new Error(`${endpoint}?${raw}: ${result.details.join('; ')}`);
  return result.query;
}

/** Every field path the filter constrains, through $and/$or. */
function constrainedPaths(filter: Document): Set<string> {
  const paths = new Set<string>();
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') for (const clause of value as Document[]) for (const p of constrainedPaths(clause)) paths.add(p);
    else paths.add(key);
  }
  return paths;
}

for (const [format, listing] of SERVED_FORMATS.flatMap((f) => (Object.keys(BUILDERS) as ReadListing[]).map((l) => [f, l] as const))) {
  describe(`${listing} query shapes, format ${format}`, () => {
    const indexes = new Map(readCollectionIndexes(listing, format).map((i) => [i.name, i.key]));
    const params = Object.keys(ENDPOINTS[listing].query.properties).filter((p) => !['sort', 'order', 'page', 'limit'].includes(p));
    const value = (p: string): string => (p === 'status' ? (STATUS[listing] ?? '') : (SAMPLES[p] ?? ''));
    const combos = [[], ...params.map((p) => [p]), params.filter((p) => p !== 'status' || STATUS[listing])];

    it('hints a planned index, sorts with its sort, and constrains its leading field', () => {
      const sorts = Object.keys(LISTING_PLANS[format]![listing].sorts);
      for (const combo of combos) {
        for (const sort of sorts) {
          for (const order of ['asc', 'desc']) {
            const raw = new URLSearchParams([
              ...combo.map((p): [string, string] => [p, value(p)]),
              ['sort', sort],
              ['order', order],
            ]).toString();
            const { filter, plan } = BUILDERS[listing](raw, format);
            expect(indexes.get(plan.index.name), raw).toEqual(plan.index.key);
            const keys = Object.keys(plan.index.key);
            // search's and a roster's one index lead with the filter and do not sort: the database sorts the matches.
            const sortedByIndex = !['search', 'clubId', 'coachId'].includes(plan.shape.leading);
            if (sortedByIndex)
              expect(Object.entries(plan.sort), raw).toEqual(Object.entries(plan.index.key).slice(-Object.keys(plan.sort).length));
            else expect(keys.at(-1), raw).toBe('_id');
            expect(plan.shape).toMatchObject({ listing, format, sort, order });
            const paths = constrainedPaths(filter);
            for (const path of keys.slice(0, sortedByIndex ? keys.length - Object.keys(plan.sort).length : -1)) {
              expect(paths.has(path), `${raw}: ${path} in ${JSON.stringify(filter)}`).toBe(true);
            }
            if (plan.shape.leading !== BASE_SHAPE) expect(combo).toContain(plan.shape.leading);
          }
        }
      }
    });
  });
}

describe('country filters', () => {
  const clauses = (listing: 'dancers' | 'clubs', raw: string, format: number): Document[] =>
    (BUILDERS[listing](raw, format).filter as { $and: Document[] }).$and.slice(1);

  it('in every served format, countryId matches its key in q.country and leads the index country leads', () => {
    for (const format of SERVED_FORMATS) {
      expect(clauses('dancers', 'countryId=117', format)).toEqual([{ 'q.country': countryIdKey(117) }]);
      expect(clauses('clubs', 'countryId=117', format)).toEqual([{ 'q.country': countryIdKey(117) }]);
      expect(clauses('dancers', 'country=Latvija', format)).toEqual([{ 'q.country': 'latvija' }]);
      const byId = BUILDERS.dancers('countryId=117&sort=approvedAt&order=desc', format).plan;
      expect(byId.index).toEqual(BUILDERS.dancers('country=LV&sort=approvedAt&order=desc', format).plan.index);
      expect(byId.index.name).toBe('api_country_approvedAt_desc');
    }
  });
});

describe('readPage', () => {
  it('counts with the filter alone and finds with the plan sort, hint and time limit, skipping for the page', async () => {
    const calls: Document[] = [];
    const view = {
      maxTimeMS: 1234,
      count: (listing: string, filter: Document) => {
        calls.push({ op: 'count', listing, filter });
        return Promise.resolve(41);
      },
      collection: (listing: string) => ({
        find: (filter: Document, options: Document) => {
          calls.push({ op: 'find', listing, filter, options });
          return { toArray: () => Promise.resolve([{ id: 'x' }]) };
        },
      }),
    } as unknown as Pick<ReadModelView, 'collection' | 'count' | 'maxTimeMS'>;
    const query = dancerListQuery(parsed('dancers', 'clubId=' + UUID + '&sort=approvedAt&order=desc'), CURRENT_LAYOUT);
    const page = await readPage(view, 'dancers', query, { fields: ['id'], page: 3, limit: 20 });
    expect(page).toEqual({ docs: [{ id: 'x' }], total: 41 });
    expect(calls).toContainEqual({ op: 'count', listing: 'dancers', filter: query.filter });
    expect(calls).toContainEqual({
      op: 'find',
      listing: 'dancers',
      filter: query.filter,
      options: {
        projection: { _id: 0, id: 1 },
        sort: { 'q.approvedRank': 1, 'q.approvedAt': -1, _id: 1 },
        skip: 40,
        limit: 20,
        hint: 'api_clubId',
        maxTimeMS: 1234,
      },
    });
    calls.length = 0;
    expect(await readPage(view, 'dancers', query, { fields: [], page: Number.MAX_SAFE_INTEGER, limit: 100 })).toEqual({
      docs: [],
      total: 41,
    });
    expect(calls.map((c) => String(c.op))).toEqual(['count']);
  });
});
