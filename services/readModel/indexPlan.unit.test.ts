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
const EQUALITY_PATHS: Record<string, string> = {
  search: 'q.tokens',
  clubId: 'q.clubIds',
  coachId: 'q.coachIds',
  countryId: 'country.id',
  country: 'q.country',
};
const CLUB_EQUALITY_PATHS: Record<string, string> = { search: 'q.tokens', countryId: 'q.countryIds', country: 'q.country' };
/** Filters whose one index leads with them and does not sort: the database sorts their matches (search: a top-k sort; a roster: a few dozen). */
const UNSORTED_LEADING = new Set(['search', 'clubId', 'coachId']);
const ARRAY_PATHS = new Set(['q.tokens', 'q.clubIds', 'q.coachIds', 'q.country', 'q.countryIds', 'q.cities', 'q.positions']);
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
function serves(key: IndexKey, listing: ReadListing, leading: string, sort: string, order: SortOrder): boolean {
  const leadingPath = leadingPathOf(listing, leading);
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

function leadingPathOf(listing: ReadListing, leading: string): string | null {
  if (leading === BASE_SHAPE) return null;
  return (listing === 'clubs' ? CLUB_EQUALITY_PATHS : EQUALITY_PATHS)[leading] ?? 'unplanned';
}

describe('index plan', () => {
  for (const listing of LISTINGS) {
    const indexes = readCollectionIndexes(listing);
    const byName = new Map(indexes.map((index) => [index.name, index.key]));

    it(`${listing}: every filter alone, all filters together, × every sort × order run in a served shape`, () => {
      const filters = filtersOf(listing);
      const combinations = [[], ...filters.map((f) => [f]), filters];
      for (const present of combinations) {
        for (const sort of Object.keys(SORTS[listing])) {
          for (const order of ['asc', 'desc'] as const) {
            const plan = chooseQueryShape(listing, present, sort, order);
            const label = `${listing} [${present.join(',')}] ${sort} ${order} → ${plan.index.name}`;
            expect(byName.get(plan.index.name), label).toEqual(plan.index.key);
            expect(serves(plan.index.key, listing, plan.shape.leading, sort, order), label).toBe(true);
            const sortFields = SORTS[listing][sort]!.map(([path, dir]) => [path, dir === 'order' && order === 'desc' ? -1 : 1]);
            expect(Object.entries(plan.sort), label).toEqual([...sortFields, ['_id', 1]]);
            if (plan.shape.leading !== BASE_SHAPE) expect(present).toContain(plan.shape.leading);
          }
        }
      }
    });

    it(`${listing}: every enumerated shape has its index; names unique; count sane; no parallel arrays`, () => {
      for (const shape of queryShapes(listing)) {
        const served = indexes.some((index) => serves(index.key as IndexKey, listing, shape.leading, shape.sort, shape.order));
        expect(served, JSON.stringify(shape)).toBe(true);
      }
      expect(new Set(indexes.map((i) => i.name)).size).toBe(indexes.length);
      expect(indexes.length).toBeLessThan(30);
      for (const index of indexes) {
        expect(Object.keys(index.key).filter((path) => ARRAY_PATHS.has(path)).length, index.name).toBeLessThanOrEqual(1);
      }
      expect(indexes.map((i) => i.key)).toContainEqual({ nextDueAt: 1, _id: 1 });
    });
  }

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
    expect(Object.keys(LISTING_PLANS)).toEqual(LISTINGS);
  });
});
