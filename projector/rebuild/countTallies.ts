import type { Db } from 'mongodb';
import { addFacets, facetProjection, type FacetChanges, type FacetFields } from '../../services/readModel/facets.ts';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import type { TallyDocument } from '../write/talliedBulk.ts';
import type { ProjectionCollections } from '../write/projectionCollections.ts';

const NAMESPACE_NOT_FOUND = 26;

/**
 * Counts the facet keys of every document of a built generation into its tallies (slot 0), once
 * its last write before the switch is done: the rebuild writes its documents without keeping
 * tallies (each is written once, by the derivation, or again by the final sweep), and one read
 * of the facet fields costs less than a transaction per bulk. Returns how many tallies it wrote.
 */
export async function countTallies(db: Db, names: ProjectionCollections): Promise<number> {
  const tallies: TallyDocument[] = [];
  for (const listing of Object.keys(names.read) as ReadListing[]) {
    const counts: FacetChanges = new Map();
    const projection = facetProjection(listing);
    const documents = db.collection(names.read[listing]).find({}, { projection, batchSize: 10_000 });
    for await (const doc of documents) addFacets(counts, listing, doc as FacetFields, 1);
    for (const [prefix, { facet, key, delta }] of counts) tallies.push({ _id: `${prefix}0`, l: listing, f: facet, k: key, n: delta });
  }
  // Counted afresh: whatever an earlier count left is replaced.
  await db.dropCollection(names.tallies).catch((error: unknown) => {
    if ((error as { code?: number }).code !== NAMESPACE_NOT_FOUND) throw error;
  });
  if (tallies.length > 0)
    await db.collection<TallyDocument>(names.tallies).insertMany(tallies, { writeConcern: { w: 'majority', journal: true } });
  return tallies.length;
}
