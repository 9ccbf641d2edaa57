import type { Collection, Document } from 'mongodb';
import type { Country } from '../../schemas/api/country.ts';
import { JUDGE_POSITIONS, MEMBERSHIP_STATUSES, REGISTRY_STATES, type JudgePosition } from '../../schemas/enumValues.ts';
import type { RegistryFilters } from '../../schemas/api/filterBodies.ts';
import type { NoQuery } from '../../schemas/api/noQuery.ts';
import type { ClubDocument, CoachDocument, DancerDocument, JudgeDocument } from '../../services/readModel/documents.ts';
import { compareDisplayNames } from './compareDisplayNames.ts';
import { KeyCounts } from './keyCounts.ts';
import { findFields } from './projection.ts';
import type { ResourceRequest } from './resourceRequest.ts';

type Entity = 'dancers' | 'coaches' | 'judges' | 'clubs';

/**
 * The listed records (the registry only: the archive and the internal buffer are never
 * counted), read with only the fields a facet needs for the caller to fold: one index walk per
 * collection instead of a `$group` per facet. The local stand-in runs an aggregate by decoding
 * every matching document whole (search tokens included), so the `$group`s of this endpoint
 * were slower than these reads (docs/performance.md). On MongoDB it sends the listed records'
 * few fields once per cache period.
 */
const LISTED: Document = { registryState: 'REGISTRY' };
const listedRead = (maxTimeMS: number) => ({ maxTimeMS, batchSize: 10_000 });

type CountryCounts = KeyCounts<Country>;

/** A stored country as a counting key (its three fields only), or null. */
const countryOf = (country: Country | null | undefined): Country | null =>
  country ? { id: country.id, name: country.name, code: country.code } : null;

async function peopleByCountry(people: Collection<CoachDocument>, maxTimeMS: number): Promise<CountryCounts> {
  const counts = new KeyCounts<Country>();
  for await (const person of findFields(people, LISTED, ['country'], listedRead(maxTimeMS))) counts.add(countryOf(person.country));
  return counts;
}

/** A club counts once under every country it has a location in (the `country` filter's rule). */
async function clubsByCountry(clubs: Collection<ClubDocument>, maxTimeMS: number): Promise<CountryCounts> {
  const counts = new KeyCounts<Country>();
  for await (const club of findFields(clubs, LISTED, ['locations.country'], listedRead(maxTimeMS))) {
    const countries = new Map<number, Country>();
    for (const { country } of club.locations ?? []) {
      if (country && !countries.has(country.id)) countries.set(country.id, country);
    }
    for (const country of countries.values()) counts.add(countryOf(country));
  }
  return counts;
}

/** The listed dancers' countries and their dance classes, in one read. */
async function dancerFacets(
  dancers: Collection<DancerDocument>,
  maxTimeMS: number,
): Promise<{ countries: CountryCounts; classes: number[] }> {
  const countries = new KeyCounts<Country>();
  const classes = new Set<number>();
  for await (const { country, danceClass } of findFields(dancers, LISTED, ['country', 'danceClass'], listedRead(maxTimeMS))) {
    countries.add(countryOf(country));
    if (danceClass !== null && Number.isInteger(danceClass)) classes.add(danceClass);
  }
  return { countries, classes: [...classes].sort((a, b) => a - b) };
}

/** The listed judges' countries, categories and positions, in one read. */
async function judgeFacets(
  judges: Collection<JudgeDocument>,
  maxTimeMS: number,
): Promise<{ countries: CountryCounts; categories: number[]; positions: Set<JudgePosition> }> {
  const countries = new KeyCounts<Country>();
  const categories = new Set<number>();
  const positions = new Set<JudgePosition>();
  for await (const { country, judgeCategory, q } of findFields(
    judges,
    LISTED,
    ['country', 'judgeCategory', 'q.positions'],
    listedRead(maxTimeMS),
  )) {
    countries.add(countryOf(country));
    if (judgeCategory !== null && Number.isInteger(judgeCategory)) categories.add(judgeCategory);
    for (const position of q?.positions ?? []) positions.add(position);
  }
  return { countries, categories: [...categories].sort((a, b) => a - b), positions };
}

/** `GET /registry/filters`: countries with counts per entity (in compareDisplayNames order, then id), classes, categories, positions, enums. */
export async function registryFilters(req: ResourceRequest<NoQuery>): Promise<RegistryFilters> {
  const { view } = req;
  const [dancers, coaches, judges, clubs] = await Promise.all([
    dancerFacets(view.collection('dancers'), view.maxTimeMS),
    peopleByCountry(view.collection('coaches'), view.maxTimeMS),
    judgeFacets(view.collection('judges'), view.maxTimeMS),
    clubsByCountry(view.collection('clubs'), view.maxTimeMS),
  ]);
  const countries = new Map<number, Country & { counts: Record<Entity, number> }>();
  const add = (entity: Entity, counts: CountryCounts): void => {
    for (const { key: country, count } of counts.byId()) {
      const entry = countries.get(country.id) ?? { ...country, counts: { dancers: 0, coaches: 0, judges: 0, clubs: 0 } };
      entry.counts[entity] += count;
      countries.set(country.id, entry);
    }
  };
  add('dancers', dancers.countries);
  add('coaches', coaches);
  add('judges', judges.countries);
  add('clubs', clubs);
  return {
    data: {
      countsScope: 'registryState=REGISTRY',
      countries: [...countries.values()]
        .map(({ id, name, code, counts }) => ({ id, name, code, counts }))
        .sort((a, b) => compareDisplayNames(a.name, b.name) || a.id - b.id),
      danceClasses: dancers.classes,
      judgeCategories: judges.categories,
      judgePositions: JUDGE_POSITIONS.filter((p) => judges.positions.has(p)),
      statuses: [...MEMBERSHIP_STATUSES],
      registryStates: [...REGISTRY_STATES],
    },
  };
}
