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
import { compareDisplayNames } from './compareDisplayNames.ts';
import { JSON_TYPE } from '../http/serializeBody.ts';
import { StreamedBody } from '../http/streamedBody.ts';
import { jsonInPieces } from './jsonInPieces.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** Code units: for codes, which are identifiers rather than words. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `GET /filters`: countries, cities and types of published competitions, and every enum value.
 * Countries and cities come in the collation order people read (compareDisplayNames), ties
 * broken by id or country code so the body, and so its ETag, is the same on every instance.
 */
export function competitionFilters(req: ResourceRequest<NoQuery>): StreamedBody {
  async function* pieces(): AsyncGenerator<string> {
    yield* jsonInPieces(await filtersBody(req));
  }
  return new StreamedBody(JSON_TYPE, pieces());
}

/**
 * The body of `/filters`, from the tallies (or a read of every published competition's facets).
 * Sent as a StreamedBody: the cities are as many as the published competitions and each name is
 * authored text, so a body past the answer budget is streamed city by city, never held as one string.
 */
async function filtersBody(req: ResourceRequest<NoQuery>): Promise<CompetitionFilters> {
  const facets = await req.view.facetCounts('competitions');
  const countries = facets.of<Country>('country');
  const cities = facets.of<{ name: string; countryCode: string | null }>('city');
  const types = facets.of<{ id: string; label: string }>('type');
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
