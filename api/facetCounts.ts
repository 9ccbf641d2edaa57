import type { Db, Document } from 'mongodb';
import { facetProjection, facetsOf, tallyRange, type Facet, type FacetFields } from '../services/readModel/facets.ts';
import type { ReadListing } from '../services/readModel/indexPlan.ts';
import { KeyCounts } from './resources/keyCounts.ts';

/** The documents a listing's facets are counted over: the published competitions, the records in the registry. */
const COUNTED: Record<ReadListing, Document> = {
  competitions: { visible: true },
  dancers: { registryState: 'REGISTRY' },
  coaches: { registryState: 'REGISTRY' },
  judges: { registryState: 'REGISTRY' },
  clubs: { registryState: 'REGISTRY' },
};

/** How many of a listing's documents count under each key of each facet (services/readModel/facets.ts). */
export class FacetCounts {
  readonly #facets = new Map<Facet, KeyCounts<unknown>>();

  add(facet: Facet, key: unknown, times = 1): void {
    let counts = this.#facets.get(facet);
    if (!counts) this.#facets.set(facet, (counts = new KeyCounts<unknown>()));
    counts.add(key, times);
  }

  /** The counts of one facet, its keys typed as the facet's (facets.ts says which shape each has). */
  of<K>(facet: Facet): KeyCounts<K> {
    return (this.#facets.get(facet) ?? new KeyCounts<unknown>()) as KeyCounts<K>;
  }
}

interface Tally {
  k: unknown;
  f: Facet;
  n: number;
}

/** A listing's facet counts (of one facet, when given) from its tallies: one `_id` range of a small collection, its slots summed. */
export async function readTallies(db: Db, tallies: string, listing: ReadListing, maxTimeMS: number, facet?: Facet): Promise<FacetCounts> {
  const counts = new FacetCounts();
  const found = db
    .collection<Tally & { _id: string }>(tallies)
    .find({ _id: tallyRange(listing, facet) }, { projection: { _id: 0, f: 1, k: 1, n: 1 }, maxTimeMS });
  for await (const { f, k, n } of found) counts.add(f, k, n);
  return counts;
}

/**
 * A listing's facet counts by reading the facet fields of every counted document: for a
 * generation without tallies (format 3 and older, or one whose writer could not keep them). The
 * local stand-in runs an aggregate by decoding every matching document whole, so a `$group` per
 * facet was slower than this one read (docs/performance.md); on MongoDB it sends the counted
 * documents' few fields once per cache period.
 */
export async function countFacets(db: Db, collection: string, listing: ReadListing, maxTimeMS: number): Promise<FacetCounts> {
  const counts = new FacetCounts();
  const projection = facetProjection(listing);
  const found = db.collection(collection).find(COUNTED[listing], { projection, maxTimeMS, batchSize: 10_000 });
  for await (const doc of found) for (const [facet, key] of facetsOf(listing, doc as FacetFields)) counts.add(facet, key);
  return counts;
}

/**
 * The tallied keys whose counts sum to the number of documents `filter` matches, when it is a
 * listing's base filter alone (a default listing: the published competitions, the records in
 * some registry states); null for any other filter, which the database counts.
 */
export function talliedKeys(listing: ReadListing, filter: Document): { facet: Facet; keys: unknown[] } | null {
  const fields = Object.keys(filter);
  if (fields.length !== 1) return null;
  if (listing === 'competitions') return fields[0] === 'visible' && filter.visible === true ? { facet: 'visible', keys: [true] } : null;
  const states: unknown = filter.registryState;
  if (fields[0] !== 'registryState' || typeof states !== 'object' || states === null || Object.keys(states).join() !== '$in') return null;
  const listed: unknown = (states as { $in: unknown }).$in;
  return Array.isArray(listed) && listed.every((state) => typeof state === 'string')
    ? { facet: 'state', keys: [...new Set(listed)] }
    : null;
}

/** The sum of the tallies of `keys` of one facet: how many documents the filter talliedKeys read matches. */
export async function sumTallies(
  db: Db,
  tallies: string,
  listing: ReadListing,
  { facet, keys }: { facet: Facet; keys: unknown[] },
  maxTimeMS: number,
): Promise<number> {
  const wanted = new Set(keys.map((key) => JSON.stringify(key)));
  const counts = (await readTallies(db, tallies, listing, maxTimeMS, facet)).of(facet).rows();
  return counts.reduce((sum, { key, count }) => (wanted.has(JSON.stringify(key)) ? sum + count : sum), 0);
}
