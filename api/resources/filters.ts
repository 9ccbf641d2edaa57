import type { Collection } from 'mongodb';
import type { Country } from '../../schemas/api/country.ts';
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
import type { CompetitionDocument } from '../../services/readModel/documents.ts';
import { compareDisplayNames } from './compareDisplayNames.ts';
import { KeyCounts } from './keyCounts.ts';
import { findFields, type Projected } from './projection.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** What the counts read of a published competition. */
const COUNTED_FIELDS = ['location.countryId', 'location.country', 'location.countryCode', 'location.city', 'type'] as const;
type Counted = Projected<CompetitionDocument, (typeof COUNTED_FIELDS)[number]>;

/**
 * Folds every published competition's location and type, read once with only those fields:
 * the local stand-in runs an aggregate by decoding each matching document whole, so three
 * `$group`s over the published competitions cost three full reads of them.
 */
async function countPublished(
  competitions: Collection<CompetitionDocument>,
  maxTimeMS: number,
  counters: ReadonlyArray<(competition: Counted) => void>,
): Promise<void> {
  for await (const competition of findFields(competitions, { visible: true }, COUNTED_FIELDS, { maxTimeMS, batchSize: 10_000 })) {
    for (const count of counters) count(competition);
  }
}

/** Code units: for codes, which are identifiers rather than words. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `GET /filters`: countries, cities and types of published competitions, and every enum value.
 * Countries and cities come in the collation order people read (compareDisplayNames), ties
 * broken by id or country code so the body, and so its ETag, is the same on every instance.
 */
export async function competitionFilters(req: ResourceRequest<NoQuery>): Promise<CompetitionFilters> {
  /** Absent fields as null, as the `$ne: null` the counts used to match with. */
  const location = ({ location: l }: Counted): Counted['location'] => ({
    countryId: l?.countryId ?? null,
    country: l?.country ?? null,
    countryCode: l?.countryCode ?? null,
    city: l?.city ?? null,
  });
  const countries = new KeyCounts<Country>();
  const cities = new KeyCounts<{ name: string; countryCode: string | null }>();
  const types = new KeyCounts<{ id: string; label: string }>();
  await countPublished(req.view.collection('competitions'), req.view.maxTimeMS, [
    (c) => {
      const { countryId, country, countryCode } = location(c);
      countries.add(
        countryId !== null && country !== null && countryCode !== null ? { id: countryId, name: country, code: countryCode } : null,
      );
    },
    (c) => {
      const { city, countryCode } = location(c);
      cities.add(city !== null ? { name: city, countryCode } : null);
    },
    (c) => {
      const type = c.type ?? null;
      types.add(type !== null ? { id: type.code, label: type.label } : null);
    },
  ]);
  return {
    data: {
      countries: countries
        .byId()
        .map(({ key, count }) => ({ id: key.id, name: key.name, code: key.code, competitionsCount: count }))
        .sort((a, b) => compareDisplayNames(a.name, b.name) || a.id - b.id),
      cities: cities
        .rows()
        .map(({ key, count }) => ({ name: key.name, countryCode: key.countryCode ?? null, competitionsCount: count }))
        .sort((a, b) => compareDisplayNames(a.name, b.name) || byText(a.countryCode ?? '', b.countryCode ?? '')),
      types: types
        .byId()
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
