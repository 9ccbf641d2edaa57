import type { ReadListing } from './indexPlan.ts';

/**
 * What one read document counts under in the filter bodies and the default listings' totals:
 * `[facet, key]` pairs, each key counted once per document. One definition serves the two ways
 * the API gets the counts: tallies the projector keeps in the same transaction as the documents
 * (projector/write/talliedBulk.ts, from read-model format 4), and a read of every listed
 * document when a generation has none (older formats, a writer without transactions). Both then
 * agree by construction.
 *
 * - `visible` (competitions): the published ones, key `true`; the other facets of a competition
 *   count only when it is published.
 * - `state` (people and clubs): the stored registryState, whatever it is; the other facets count
 *   only records in the registry (`countsScope: registryState=REGISTRY`).
 * - `country`: `{id, name, code}` (a club once under each country of its locations, spelled as
 *   its first location with that id spells it); `city` `{name, countryCode}`; `type`
 *   `{id, label}`; `class`, `category`: a number; `position`: a judge position.
 */
/** The base name of each generation's tallies collection (collectionName gives the generation's). */
export const TALLIES_COLLECTION = 'tallies';

export type Facet = 'visible' | 'state' | 'country' | 'city' | 'type' | 'class' | 'category' | 'position';
export type FacetKey = readonly [facet: Facet, key: unknown];

/** The stored paths facetsOf reads of each listing's documents: a read of the counts projects these. */
export const FACET_FIELDS = {
  competitions: ['visible', 'location.countryId', 'location.country', 'location.countryCode', 'location.city', 'type'],
  dancers: ['registryState', 'country', 'danceClass'],
  coaches: ['registryState', 'country'],
  judges: ['registryState', 'country', 'judgeCategory', 'q.positions'],
  clubs: ['registryState', 'locations.country'],
} as const satisfies Record<ReadListing, readonly string[]>;

/** The inclusion projection of FACET_FIELDS: what a read of a listing's documents for their facets loads. */
export const facetProjection = (listing: ReadListing): Record<string, 1> =>
  Object.fromEntries(FACET_FIELDS[listing].map((field) => [field, 1] as const));

interface StoredCountry {
  id: number;
  name: string;
  code: string;
}

/** The facet fields of any listing's document, as loose as a projection of them may come back. */
export interface FacetFields {
  visible?: boolean;
  location?: { countryId?: number | null; country?: string | null; countryCode?: string | null; city?: string | null } | null;
  type?: { code: string; label: string } | null;
  registryState?: string;
  country?: StoredCountry | null;
  danceClass?: number | null;
  judgeCategory?: number | null;
  q?: { positions?: readonly string[] };
  locations?: ReadonlyArray<{ country?: StoredCountry | null }> | null;
}

/** A stored country as a counting key (its three fields only, in this order), or nothing. */
const countryKey = (country: StoredCountry | null | undefined): FacetKey[] =>
  country ? [['country', { id: country.id, name: country.name, code: country.code }]] : [];

const numberKey = (facet: Facet, value: number | null | undefined): FacetKey[] =>
  value !== null && value !== undefined && Number.isInteger(value) ? [[facet, value]] : [];

function competitionFacets(doc: FacetFields): FacetKey[] {
  if (doc.visible !== true) return [];
  const countryId = doc.location?.countryId ?? null;
  const country = doc.location?.country ?? null;
  const countryCode = doc.location?.countryCode ?? null;
  const city = doc.location?.city ?? null;
  const keys: FacetKey[] = [['visible', true]];
  if (countryId !== null && country !== null && countryCode !== null)
    keys.push(['country', { id: countryId, name: country, code: countryCode }]);
  if (city !== null) keys.push(['city', { name: city, countryCode }]);
  if (doc.type) keys.push(['type', { id: doc.type.code, label: doc.type.label }]);
  return keys;
}

/** Each country of a club's locations once, as its first location with that id spells it. */
function clubCountries(doc: FacetFields): FacetKey[] {
  const countries = new Map<number, StoredCountry>();
  for (const { country } of doc.locations ?? []) if (country && !countries.has(country.id)) countries.set(country.id, country);
  return [...countries.values()].flatMap(countryKey);
}

function registryFacets(listing: Exclude<ReadListing, 'competitions'>, doc: FacetFields): FacetKey[] {
  if (doc.registryState === undefined) return [];
  const keys: FacetKey[] = [['state', doc.registryState]];
  if (doc.registryState !== 'REGISTRY') return keys;
  if (listing === 'clubs') return [...keys, ...clubCountries(doc)];
  keys.push(...countryKey(doc.country));
  if (listing === 'dancers') keys.push(...numberKey('class', doc.danceClass));
  if (listing === 'judges') {
    keys.push(...numberKey('category', doc.judgeCategory));
    for (const position of new Set(doc.q?.positions ?? [])) keys.push(['position', position]);
  }
  return keys;
}

/** The facet keys `doc` of `listing` counts under (none for a missing document). */
export function facetsOf(listing: ReadListing, doc: FacetFields | null | undefined): FacetKey[] {
  if (!doc) return [];
  return listing === 'competitions' ? competitionFacets(doc) : registryFacets(listing, doc);
}

/**
 * The tally document id of a facet key, without its slot: `<listing>|<facet>|<key as JSON>|`.
 * Every id of one listing lies in [`<listing>|`, `<listing>}`), so a listing's tallies are one
 * `_id` range (`}` follows `|`); and no key's prefix is another's, as a JSON value is never
 * followed by `|` inside another JSON value's text.
 */
export const tallyPrefix = (listing: ReadListing, facet: Facet, key: unknown): string => `${listing}|${facet}|${JSON.stringify(key)}|`;

/** The `_id` range holding every tally of `listing` (or of one facet of it). */
export function tallyRange(listing: ReadListing, facet?: Facet): { $gte: string; $lt: string } {
  const prefix = facet === undefined ? listing : `${listing}|${facet}`;
  return { $gte: `${prefix}|`, $lt: `${prefix}}` };
}

/** Net changes of facet keys' counts, by tally prefix (tallyPrefix). */
export type FacetChanges = Map<string, { facet: Facet; key: unknown; delta: number }>;

/** Adds `delta` to the change of every facet key `doc` of `listing` counts under. */
export function addFacets(changes: FacetChanges, listing: ReadListing, doc: FacetFields, delta: number): void {
  for (const [facet, key] of facetsOf(listing, doc)) {
    const id = tallyPrefix(listing, facet, key);
    const entry = changes.get(id);
    if (entry) entry.delta += delta;
    else changes.set(id, { facet, key, delta });
  }
}

/**
 * The net change of each facet key's count when documents change from `before` to `after`
 * (the documents of the same ids, either side missing where absent), keys with no change left
 * out: what a write adds to the tallies.
 */
export function facetDeltas(listing: ReadListing, before: Iterable<FacetFields>, after: Iterable<FacetFields>): FacetChanges {
  const deltas: FacetChanges = new Map();
  for (const doc of before) addFacets(deltas, listing, doc, -1);
  for (const doc of after) addFacets(deltas, listing, doc, 1);
  for (const [id, { delta }] of deltas) if (delta === 0) deltas.delete(id);
  return deltas;
}
