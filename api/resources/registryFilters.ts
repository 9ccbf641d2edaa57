import type { Collection, Document } from 'mongodb';
import { JUDGE_POSITIONS, MEMBERSHIP_STATUSES, REGISTRY_STATES } from '../../schemas/enumValues.ts';
import type { RegistryFilters } from '../../schemas/api/filterBodies.ts';
import type { NoQuery } from '../../schemas/api/noQuery.ts';
import { compareDisplayNames } from './compareDisplayNames.ts';
import { KeyCounts } from './keyCounts.ts';
import type { ResourceRequest } from './resourceRequest.ts';

type Country = { id: number; name: string; code: string };
type Entity = 'dancers' | 'coaches' | 'judges' | 'clubs';

/** Counts cover the registry only; the archive and the internal buffer are never counted. */
const LISTED = { registryState: 'REGISTRY' };

/**
 * The listed records of a collection, only `projection`'s fields, for the caller to fold: one
 * index walk per collection instead of a `$group` per facet. The local stand-in runs an
 * aggregate by decoding every matching document whole (search tokens included): over the 59,251
 * listed of 173,360 dancers, the `$group` of their countries alone took 1,792 ms (the endpoint
 * ran seven), this read of countries and classes 488 ms. On MongoDB it sends the listed
 * records' few fields (about 60 bytes each) once per cache period.
 */
function listed(collection: Collection<Document>, projection: Document, maxTimeMS: number): AsyncIterable<Document> {
  return collection.find(LISTED, { projection: { _id: 0, ...projection }, maxTimeMS, batchSize: 10_000 });
}

type CountryCounts = KeyCounts<Country>;

/** A stored country as a counting key (its three fields only), or null. */
const countryOf = (value: unknown): Country | null => {
  const country = value as Country | null | undefined;
  return country ? { id: country.id, name: country.name, code: country.code } : null;
};

async function peopleByCountry(people: Collection<Document>, maxTimeMS: number): Promise<CountryCounts> {
  const counts = new KeyCounts<Country>();
  for await (const person of listed(people, { country: 1 }, maxTimeMS)) counts.add(countryOf(person.country));
  return counts;
}

/** A club counts once under every country it has a location in (the `country` filter's rule). */
async function clubsByCountry(clubs: Collection<Document>, maxTimeMS: number): Promise<CountryCounts> {
  const counts = new KeyCounts<Country>();
  for await (const club of listed(clubs, { 'locations.country': 1 }, maxTimeMS)) {
    const countries = new Map<number, Country>();
    for (const { country } of (club.locations as Array<{ country: Country | null }> | undefined) ?? []) {
      if (country && !countries.has(country.id)) countries.set(country.id, country);
    }
    for (const country of countries.values()) counts.add(countryOf(country));
  }
  return counts;
}

/** The listed dancers' countries and their dance classes, in one read. */
async function dancerFacets(dancers: Collection<Document>, maxTimeMS: number): Promise<{ countries: CountryCounts; classes: number[] }> {
  const countries = new KeyCounts<Country>();
  const classes = new Set<number>();
  for await (const dancer of listed(dancers, { country: 1, danceClass: 1 }, maxTimeMS)) {
    countries.add(countryOf(dancer.country));
    if (Number.isInteger(dancer.danceClass)) classes.add(dancer.danceClass as number);
  }
  return { countries, classes: [...classes].sort((a, b) => a - b) };
}

/** The listed judges' countries, categories and positions, in one read. */
async function judgeFacets(
  judges: Collection<Document>,
  maxTimeMS: number,
): Promise<{ countries: CountryCounts; categories: number[]; positions: Set<unknown> }> {
  const countries = new KeyCounts<Country>();
  const categories = new Set<number>();
  const positions = new Set<unknown>();
  for await (const judge of listed(judges, { country: 1, judgeCategory: 1, 'q.positions': 1 }, maxTimeMS)) {
    countries.add(countryOf(judge.country));
    if (Number.isInteger(judge.judgeCategory)) categories.add(judge.judgeCategory as number);
    for (const position of (judge.q as { positions?: unknown[] } | undefined)?.positions ?? []) positions.add(position);
  }
  return { countries, categories: [...categories].sort((a, b) => a - b), positions };
}

/** `GET /registry/filters`: countries with counts per entity (in compareDisplayNames order, then id), classes, categories, positions, enums. */
export async function registryFilters(req: ResourceRequest<NoQuery>): Promise<RegistryFilters> {
  const c = (listing: Entity) => req.view.collection(listing);
  const { maxTimeMS } = req.view;
  const [dancers, coaches, judges, clubs] = await Promise.all([
    dancerFacets(c('dancers'), maxTimeMS),
    peopleByCountry(c('coaches'), maxTimeMS),
    judgeFacets(c('judges'), maxTimeMS),
    clubsByCountry(c('clubs'), maxTimeMS),
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
