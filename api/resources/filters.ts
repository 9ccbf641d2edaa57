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

/** Counts of the keys `keyOf` gives (null: not counted), each distinct key once with its count. */
class KeyCounts<K> {
  readonly #rows = new Map<string, Counted<K>>();
  readonly #keyOf: (competition: Document) => K | null;

  constructor(keyOf: (competition: Document) => K | null) {
    this.#keyOf = keyOf;
  }

  add(competition: Document): void {
    const key = this.#keyOf(competition);
    if (key === null) return;
    const id = JSON.stringify(key);
    const row = this.#rows.get(id);
    if (row) row.count += 1;
    else this.#rows.set(id, { key, count: 1 });
  }

  rows(): Counted<K>[] {
    return [...this.#rows.values()];
  }
}

/**
 * Folds every published competition's location and type, read once with only those fields:
 * the local stand-in runs an aggregate by decoding each matching document whole, so three
 * `$group`s over the published competitions cost three full reads of them.
 */
async function countPublished(
  competitions: Collection<Document>,
  maxTimeMS: number,
  counters: ReadonlyArray<{ add(competition: Document): void }>,
): Promise<void> {
  const projection = { _id: 0, 'location.countryId': 1, 'location.country': 1, 'location.countryCode': 1, 'location.city': 1, type: 1 };
  for await (const competition of competitions.find({ visible: true }, { projection, maxTimeMS, batchSize: 10_000 })) {
    for (const counter of counters) counter.add(competition);
  }
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
  type Location = { countryId: number | null; country: string | null; countryCode: string | null; city: string | null };
  /** Absent fields as null, as the `$ne: null` the counts used to match with. */
  const location = (c: Document): Location => {
    const l = (c.location ?? {}) as Partial<Location>;
    return { countryId: l.countryId ?? null, country: l.country ?? null, countryCode: l.countryCode ?? null, city: l.city ?? null };
  };
  const countriesCount = new KeyCounts<{ id: number; name: string; code: string }>((c) => {
    const { countryId, country, countryCode } = location(c);
    return countryId !== null && country !== null && countryCode !== null ? { id: countryId, name: country, code: countryCode } : null;
  });
  const citiesCount = new KeyCounts<{ name: string; countryCode: string | null }>((c) => {
    const { city, countryCode } = location(c);
    return city !== null ? { name: city, countryCode } : null;
  });
  const typesCount = new KeyCounts<{ id: string; label: string }>((c) => {
    const type = (c.type ?? null) as { code: string; label: string } | null;
    return type !== null ? { id: type.code, label: type.label } : null;
  });
  await countPublished(req.view.collection('competitions'), req.view.maxTimeMS, [countriesCount, citiesCount, typesCount]);
  const [countries, cities, types] = [countriesCount.rows(), citiesCount.rows(), typesCount.rows()];
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
