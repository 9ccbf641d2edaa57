import type { Collection, Document } from 'mongodb';
import { JUDGE_POSITIONS, MEMBERSHIP_STATUSES, REGISTRY_STATES } from '../../schemas/enumValues.ts';
import type { RegistryFilters } from '../../schemas/api/filterBodies.ts';
import type { NoQuery } from '../../schemas/api/noQuery.ts';
import { compareDisplayNames } from './compareDisplayNames.ts';
import type { ResourceRequest } from './resourceRequest.ts';

type Country = { id: number; name: string; code: string };
type Entity = 'dancers' | 'coaches' | 'judges' | 'clubs';

/** Counts cover the registry only; the archive and the internal buffer are never counted. */
const LISTED = { registryState: 'REGISTRY' };
const COUNTRY_KEY = (prefix: string) => ({ id: `$${prefix}.id`, name: `$${prefix}.name`, code: `$${prefix}.code` });

async function peopleByCountry(people: Collection<Document>, maxTimeMS: number): Promise<Array<{ country: Country; count: number }>> {
  const rows = await people
    .aggregate([{ $match: { ...LISTED, country: { $ne: null } } }, { $group: { _id: COUNTRY_KEY('country'), count: { $sum: 1 } } }], {
      maxTimeMS,
    })
    .toArray();
  return rows.map((row) => ({ country: row._id as Country, count: Number(row.count) }));
}

/** A club counts once under every country it has a location in (the `country` filter's rule). */
async function clubsByCountry(clubs: Collection<Document>, maxTimeMS: number): Promise<Array<{ country: Country; count: number }>> {
  const rows = await clubs
    .aggregate(
      [
        { $match: LISTED },
        { $unwind: '$locations' },
        { $match: { 'locations.country': { $ne: null } } },
        { $group: { _id: { club: '$_id', ...COUNTRY_KEY('locations.country') } } },
        { $group: { _id: { id: '$_id.id', name: '$_id.name', code: '$_id.code' }, count: { $sum: 1 } } },
      ],
      { maxTimeMS },
    )
    .toArray();
  return rows.map((row) => ({ country: row._id as Country, count: Number(row.count) }));
}

/**
 * The distinct values of a field over listed records, each element of an array field counted
 * once. A `$group` on the whole value, flattened here: an array field has only a few
 * combinations, so grouping them is cheaper than unwinding every element.
 */
async function distinctValues(collection: Collection<Document>, field: string, maxTimeMS: number): Promise<unknown[]> {
  const rows = await collection.aggregate([{ $match: LISTED }, { $group: { _id: `$${field}` } }], { maxTimeMS }).toArray();
  return [...new Set(rows.flatMap((row): unknown[] => (Array.isArray(row._id) ? (row._id as unknown[]) : [row._id])))];
}

async function distinctIntegers(collection: Collection<Document>, field: string, maxTimeMS: number): Promise<number[]> {
  const values = await distinctValues(collection, field, maxTimeMS);
  return values.filter((v): v is number => Number.isInteger(v)).sort((a, b) => a - b);
}

/** `GET /registry/filters`: countries with counts per entity (in compareDisplayNames order, then id), classes, categories, positions, enums. */
export async function registryFilters(req: ResourceRequest<NoQuery>): Promise<RegistryFilters> {
  const c = (listing: Entity) => req.view.collection(listing);
  const [dancers, coaches, judges, clubs, danceClasses, judgeCategories, positions] = await Promise.all([
    peopleByCountry(c('dancers'), req.view.maxTimeMS),
    peopleByCountry(c('coaches'), req.view.maxTimeMS),
    peopleByCountry(c('judges'), req.view.maxTimeMS),
    clubsByCountry(c('clubs'), req.view.maxTimeMS),
    distinctIntegers(c('dancers'), 'danceClass', req.view.maxTimeMS),
    distinctIntegers(c('judges'), 'judgeCategory', req.view.maxTimeMS),
    distinctValues(c('judges'), 'q.positions', req.view.maxTimeMS),
  ]);
  const countries = new Map<number, Country & { counts: Record<Entity, number> }>();
  const add = (entity: Entity, rows: Array<{ country: Country; count: number }>): void => {
    for (const { country, count } of rows) {
      const entry = countries.get(country.id) ?? { ...country, counts: { dancers: 0, coaches: 0, judges: 0, clubs: 0 } };
      entry.counts[entity] += count;
      countries.set(country.id, entry);
    }
  };
  add('dancers', dancers);
  add('coaches', coaches);
  add('judges', judges);
  add('clubs', clubs);
  return {
    data: {
      countsScope: 'registryState=REGISTRY',
      countries: [...countries.values()]
        .map(({ id, name, code, counts }) => ({ id, name, code, counts }))
        .sort((a, b) => compareDisplayNames(a.name, b.name) || a.id - b.id),
      danceClasses,
      judgeCategories,
      judgePositions: JUDGE_POSITIONS.filter((p) => positions.includes(p)),
      statuses: [...MEMBERSHIP_STATUSES],
      registryStates: [...REGISTRY_STATES],
    },
  };
}
