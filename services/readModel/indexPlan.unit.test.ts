import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../schemas/api/endpoints.ts';
import {
  BASE_SHAPE,
  LISTING_PLANS,
  chooseQueryShape,
  queryShapes,
  readCollectionIndexes,
  type IndexKey,
  type ReadListing,
  type SortOrder,
} from './indexPlan.ts';
import { READ_MODEL_FORMAT, SERVED_FORMATS } from './readModelFormat.ts';

// The API's semantics written out independently of the plan (projector/evolve/README.md, "What
// the API filters and sorts on"): which field each filter and each sort reads. A plan that
// stops serving one of these shapes fails here.
const SORTS: Record<ReadListing, Record<string, Array<[string, 'order' | 'asc']>>> = {
  competitions: {
    startDate: [['dates.start', 'order']],
    endDate: [['dates.end', 'order']],
    name: [['q.name', 'order']],
    createdAt: [['createdAt', 'order']],
    updatedAt: [['updatedAt', 'order']],
  },
  dancers: {
    name: [['q.nameKey', 'order']],
    approvedAt: [
      ['q.approvedRank', 'asc'],
      ['q.approvedAt', 'order'],
    ],
  },
  coaches: {
    name: [['q.nameKey', 'order']],
    approvedAt: [
      ['q.approvedRank', 'asc'],
      ['q.approvedAt', 'order'],
    ],
  },
  judges: {
    name: [['q.nameKey', 'order']],
    approvedAt: [
      ['q.approvedRank', 'asc'],
      ['q.approvedAt', 'order'],
    ],
  },
  clubs: {
    name: [['q.nameKey', 'order']],
    approvedAt: [
      ['q.approvedRank', 'asc'],
      ['q.approvedAt', 'order'],
    ],
  },
};
const BASE: Record<ReadListing, string> = {
  competitions: 'visible',
  dancers: 'registryState',
  coaches: 'registryState',
  judges: 'registryState',
  clubs: 'registryState',
};
/** The path `countryId` reads, by format: the id (format 1), or its key beside the folded names in `q.country` (format 2). */
const COUNTRY_ID_PATH: Record<number, { people: string; clubs: string }> = {
  1: { people: 'country.id', clubs: 'q.countryIds' },
  2: { people: 'q.country', clubs: 'q.country' },
  3: { people: 'q.country', clubs: 'q.country' },
  4: { people: 'q.country', clubs: 'q.country' },
  5: { people: 'q.country', clubs: 'q.country' },
  6: { people: 'q.country', clubs: 'q.country' },
};
/** Where the search tokens are, by format: in `q` until format 3 gave them a field of their own. */
const SEARCH_PATH: Record<number, string> = { 1: 'q.tokens', 2: 'q.tokens', 3: 's.tokens', 4: 's.tokens', 5: 's.tokens', 6: 's.tokens' };
const equalityPaths = (format: number, listing: ReadListing): Record<string, string> => {
  const countryId = COUNTRY_ID_PATH[format]![listing === 'clubs' ? 'clubs' : 'people'];
  return listing === 'clubs'
    ? { search: SEARCH_PATH[format]!, countryId, country: 'q.country' }
    : { search: SEARCH_PATH[format]!, clubId: 'q.clubIds', coachId: 'q.coachIds', countryId, country: 'q.country' };
};
/** Indexes per collection (the API's and the clock's, the competitions' slug and removals), by format. */
const INDEX_COUNTS: Record<number, Record<ReadListing, number>> = {
  // 2 sorts × 2 orders for the base and each sorted leading filter (countryId, country), one per unsorted one.
  1: { competitions: 14, dancers: 16, coaches: 15, judges: 14, clubs: 14 },
  // countryId and country lead one set: 4 fewer on each registry listing.
  2: { competitions: 14, dancers: 12, coaches: 11, judges: 10, clubs: 10 },
  // The same indexes, the search one on `s.tokens`.
  3: { competitions: 14, dancers: 12, coaches: 11, judges: 10, clubs: 10 },
  // Format 4 adds tallies beside the documents, not indexes.
  4: { competitions: 14, dancers: 12, coaches: 11, judges: 10, clubs: 10 },
  // Format 5 changes the projector's own collections, not the read ones.
  5: { competitions: 14, dancers: 12, coaches: 11, judges: 10, clubs: 10 },
  // Format 6 likewise (the persons' links).
  6: { competitions: 14, dancers: 12, coaches: 11, judges: 10, clubs: 10 },
};
/** Filters whose one index leads with them and does not sort: the database sorts their matches (search: a top-k sort; a roster: a few dozen). */
const UNSORTED_LEADING = new Set(['search', 'clubId', 'coachId']);
const ARRAY_PATHS = new Set(['q.tokens', 's.tokens', 'q.clubIds', 'q.coachIds', 'q.country', 'q.countryIds', 'q.cities', 'q.positions']);
const ENDPOINT_OF: Record<ReadListing, keyof typeof ENDPOINTS> = {
  competitions: 'competitions',
  dancers: 'dancers',
  coaches: 'coaches',
  judges: 'judges',
  clubs: 'clubs',
};
const LISTINGS = Object.keys(SORTS) as ReadListing[];
const NOT_FILTERS = new Set(['sort', 'order', 'page', 'limit', 'include']);

/** Equality prefix (any order), then exactly the sort fields, then `_id` ascending last. */
function serves(key: IndexKey, format: number, listing: ReadListing, leading: string, sort: string, order: SortOrder): boolean {
  const leadingPath = leadingPathOf(format, listing, leading);
  const entries = Object.entries(key);
  const equality = [BASE[listing], ...(leadingPath ? [leadingPath] : [])];
  const prefix = entries.slice(0, equality.length).map(([path]) => path);
  if ([...prefix].sort().join() !== [...equality].sort().join()) return false;
  const expected = (SORTS[listing][sort] ?? []).map(([path, dir]): [string, number] => [
    path,
    dir === 'order' && order === 'desc' ? -1 : 1,
  ]);
  const rest = UNSORTED_LEADING.has(leading) ? [] : expected;
  return JSON.stringify(entries.slice(equality.length)) === JSON.stringify([...rest, ['_id', 1]]);
}

function filtersOf(listing: ReadListing): string[] {
  return Object.keys(ENDPOINTS[ENDPOINT_OF[listing]].query.properties).filter((name) => !NOT_FILTERS.has(name));
}

function leadingPathOf(format: number, listing: ReadListing, leading: string): string | null {
  if (leading === BASE_SHAPE) return null;
  return equalityPaths(format, listing)[leading] ?? 'unplanned';
}

describe.each(SERVED_FORMATS)('index plan of format %i', (format) => {
  for (const listing of LISTINGS) {
    const indexes = readCollectionIndexes(listing, format);
    const byName = new Map(indexes.map((index) => [index.name, index.key]));

    it(`${listing}: every filter alone, all filters together, × every sort × order run in a served shape`, () => {
      const filters = filtersOf(listing);
      const combinations = [[], ...filters.map((f) => [f]), filters];
      for (const present of combinations) {
        for (const sort of Object.keys(SORTS[listing])) {
          for (const order of ['asc', 'desc'] as const) {
            const plan = chooseQueryShape(listing, present, sort, order, format);
            const label = `${listing} [${present.join(',')}] ${sort} ${order} → ${plan.index.name}`;
            expect(plan.shape.format, label).toBe(format);
            expect(byName.get(plan.index.name), label).toEqual(plan.index.key);
            expect(serves(plan.index.key, format, listing, plan.shape.leading, sort, order), label).toBe(true);
            const sortFields = SORTS[listing][sort]!.map(([path, dir]) => [path, dir === 'order' && order === 'desc' ? -1 : 1]);
            expect(Object.entries(plan.sort), label).toEqual([...sortFields, ['_id', 1]]);
            if (plan.shape.leading !== BASE_SHAPE) expect(present).toContain(plan.shape.leading);
          }
        }
      }
    });

    it(`${listing}: every enumerated shape has its index; names and keys unique; count as planned; no parallel arrays`, () => {
      for (const shape of queryShapes(listing, format)) {
        const served = indexes.some((index) => serves(index.key as IndexKey, format, listing, shape.leading, shape.sort, shape.order));
        expect(served, JSON.stringify(shape)).toBe(true);
      }
      expect(new Set(indexes.map((i) => i.name)).size).toBe(indexes.length);
      // MongoDB refuses a second index of the same key under another name.
      expect(new Set(indexes.map((i) => JSON.stringify(i.key))).size).toBe(indexes.length);
      expect(indexes.length).toBe(INDEX_COUNTS[format]![listing]);
      for (const index of indexes) {
        expect(Object.keys(index.key).filter((path) => ARRAY_PATHS.has(path)).length, index.name).toBeLessThanOrEqual(1);
      }
      expect(indexes.map((i) => i.key)).toContainEqual({ nextDueAt: 1, _id: 1 });
    });
  }
});

describe('index plan', () => {
  it('has a plan for every served format; the default is the current one', () => {
    expect(Object.keys(LISTING_PLANS).map(Number)).toEqual([...SERVED_FORMATS]);
    expect(readCollectionIndexes('dancers')).toEqual(readCollectionIndexes('dancers', READ_MODEL_FORMAT));
    expect(chooseQueryShape('dancers', ['countryId'], 'name', 'asc').shape.format).toBe(READ_MODEL_FORMAT);
    expect(() => readCollectionIndexes('dancers', READ_MODEL_FORMAT + 1)).toThrow(RangeError);
  });

  it('format 2: countryId and country lead the same indexes on q.country; format 1: a set each', () => {
    for (const listing of ['dancers', 'coaches', 'judges', 'clubs'] as const) {
      for (const sort of ['name', 'approvedAt']) {
        for (const order of ['asc', 'desc'] as const) {
          const [byId, byName] = [
            chooseQueryShape(listing, ['countryId'], sort, order, 2),
            chooseQueryShape(listing, ['country'], sort, order, 2),
          ];
          expect(byId.shape.leading).toBe('countryId');
          expect(byId.index, listing).toEqual(byName.index);
          expect(Object.keys(byId.index.key)[0]).toBe('q.country');
          const old = [chooseQueryShape(listing, ['countryId'], sort, order, 1), chooseQueryShape(listing, ['country'], sort, order, 1)];
          expect(old[0]!.index.name).not.toBe(old[1]!.index.name);
          // The country filter's indexes are the same in both formats.
          expect(old[1]!.index).toEqual(byName.index);
        }
      }
      const names = (format: number) => readCollectionIndexes(listing, format).map((i) => String(i.name));
      expect(names(2).filter((name) => name.startsWith('api_countryId'))).toEqual([]);
      expect(names(1).filter((name) => name.startsWith('api_countryId'))).toHaveLength(4);
      expect(names(1).filter((name) => !names(2).includes(name))).toEqual(names(1).filter((name) => name.startsWith('api_countryId')));
    }
  });

  it('prefers the most selective present filter and falls back to the base shape', () => {
    expect(chooseQueryShape('dancers', ['country', 'clubId', 'search'], 'name', 'asc').shape.leading).toBe('search');
    expect(chooseQueryShape('dancers', ['country', 'coachId'], 'name', 'asc').shape.leading).toBe('coachId');
    expect(chooseQueryShape('competitions', ['country', 'city'], 'startDate', 'desc').index.key).toEqual({
      visible: 1,
      'dates.start': -1,
      _id: 1,
    });
    expect(chooseQueryShape('clubs', ['city'], 'approvedAt', 'desc').sort).toEqual({ 'q.approvedRank': 1, 'q.approvedAt': -1, _id: 1 });
    expect(() => chooseQueryShape('clubs', [], 'startDate', 'asc')).toThrow(RangeError);
  });

  it('plans the projector indexes: slug on competitions', () => {
    expect(readCollectionIndexes('competitions').map((i) => i.key)).toContainEqual({ slug: 1, _id: 1 });
    for (const format of SERVED_FORMATS) expect(Object.keys(LISTING_PLANS[format]!)).toEqual(LISTINGS);
  });
});
