import type { Collection, Document } from 'mongodb';
import type { CompetitionFilters } from '../../schemas/api/filterBodies.ts';
import {
  COMPETITION_SORTS,
  COMPETITION_STATUSES,
  ENTRY_TYPES,
  PERIODS,
  REGISTRATION_STATES,
  REGISTRATION_STATUSES,
  STYLES,
} from '../../schemas/enumValues.ts';
import type { NoQuery } from '../../schemas/api/noQuery.ts';
import { compareDisplayNames } from './compareDisplayNames.ts';
import type { ResourceRequest } from './resourceRequest.ts';

type Counted<K> = { key: K; count: number };

/**
 * Counts of published competitions grouped by a few fields. Only `$match`, `$group` with
 * `$sum` and field paths.
 */
async function countBy<K>(competitions: Collection<Document>, match: Document, key: Document, maxTimeMS: number): Promise<Counted<K>[]> {
  const rows = await competitions
    .aggregate([{ $match: { visible: true, ...match } }, { $group: { _id: key, count: { $sum: 1 } } }], { maxTimeMS })
    .toArray();
  return rows.map((row) => ({ key: row._id as K, count: Number(row.count) }));
}

/** Per id, the most used spelling (ties: the smaller), with the summed count. */
function mergeById<K extends { id: number | string }>(rows: Counted<K>[]): Counted<K>[] {
  const merged = new Map<number | string, { best: Counted<K>; count: number }>();
  for (const row of rows) {
    const seen = merged.get(row.key.id);
    if (!seen) merged.set(row.key.id, { best: row, count: row.count });
    else {
      seen.count += row.count;
      if (row.count > seen.best.count || (row.count === seen.best.count && JSON.stringify(row.key) < JSON.stringify(seen.best.key)))
        seen.best = row;
    }
  }
  return [...merged.values()].map(({ best, count }) => ({ key: best.key, count }));
}

/** Code units: for codes, which are identifiers rather than words. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `GET /filters`: countries, cities and types of published competitions, and every enum value.
 * Countries and cities come in the collation order people read (compareDisplayNames), ties
 * broken by id or country code so the body, and so its ETag, is the same on every instance.
 */
export async function competitionFilters(req: ResourceRequest<NoQuery>): Promise<CompetitionFilters> {
  const competitions = req.view.collection('competitions');
  const [countries, cities, types] = await Promise.all([
    countBy<{ id: number; name: string; code: string }>(
      competitions,
      { 'location.countryId': { $ne: null }, 'location.country': { $ne: null }, 'location.countryCode': { $ne: null } },
      { id: '$location.countryId', name: '$location.country', code: '$location.countryCode' },
      req.view.maxTimeMS,
    ),
    countBy<{ name: string; countryCode: string | null }>(
      competitions,
      { 'location.city': { $ne: null } },
      { name: '$location.city', countryCode: '$location.countryCode' },
      req.view.maxTimeMS,
    ),
    countBy<{ id: string; label: string }>(
      competitions,
      { type: { $ne: null } },
      { id: '$type.code', label: '$type.label' },
      req.view.maxTimeMS,
    ),
  ]);
  return {
    data: {
      countries: mergeById(countries)
        .map(({ key, count }) => ({ id: key.id, name: key.name, code: key.code, competitionsCount: count }))
        .sort((a, b) => compareDisplayNames(a.name, b.name) || a.id - b.id),
      cities: cities
        .map(({ key, count }) => ({ name: key.name, countryCode: key.countryCode ?? null, competitionsCount: count }))
        .sort((a, b) => compareDisplayNames(a.name, b.name) || byText(a.countryCode ?? '', b.countryCode ?? '')),
      types: mergeById(types)
        .map(({ key }) => ({ code: key.id, label: key.label }))
        .sort((a, b) => byText(a.code, b.code)),
      statuses: [...COMPETITION_STATUSES],
      registrationStatuses: [...REGISTRATION_STATUSES],
      registrationStates: [...REGISTRATION_STATES],
      periods: [...PERIODS],
      entryTypes: [...ENTRY_TYPES],
      styles: [...STYLES],
      sorts: [...COMPETITION_SORTS],
    },
  };
}
