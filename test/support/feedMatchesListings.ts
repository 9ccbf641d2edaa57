import type { Db, Document } from 'mongodb';
import { expect } from 'vitest';
import { changeCollections, LISTING_OF, publicVersion, readFeedBounds, type ChangeRecord } from '../../services/changes/index.ts';
import { collectionName } from '../../services/mongo/index.ts';
import { readCollections } from '../../services/readModel/documents.ts';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';

/**
 * Checks the change feed of `generation` against its read documents: positions 1 to the counter
 * without a gap or a duplicate; per resource, actions that follow each other as visible versions
 * do (created, then changed…, removed, created again), never the same version twice in a row
 * (two `created` or two `removed`); and the last announced fingerprint of every resource is that of
 * its stored document, so a client that applied the feed holds exactly what the listings show.
 * After a rebuild, `sinceRebuild` checks only the resources the new generation's feed has
 * announced: the others were in the listings at the switch and have not changed since (a client
 * has them from its resync).
 */
export async function expectFeedMatchesListings(
  db: Db,
  generation: number,
  { sinceRebuild = false }: { sinceRebuild?: boolean } = {},
): Promise<{ changes: number; resources: number }> {
  const names = changeCollections(generation);
  const records = await db.collection<ChangeRecord>(names.log).find({}).sort({ _id: 1 }).toArray();
  const { seq, trimmedThrough } = await readFeedBounds(db, names);
  expect(records.map((r) => r._id)).toEqual(Array.from({ length: seq - trimmedThrough }, (_, i) => trimmedThrough + 1 + i));
  const last = new Map<string, ChangeRecord['action']>();
  for (const record of records) {
    const key = `${record.type}|${record.id}`;
    const before = last.get(key);
    if (record.action === 'created') expect(before === undefined || before === 'removed', `${key} created after ${before}`).toBe(true);
    else expect(before === undefined || before !== 'removed', `${key} ${record.action} after ${before}`).toBe(true);
    last.set(key, record.action);
  }
  const heads = new Map(
    (
      await db
        .collection<{ _id: string; f: string | null }>(names.heads)
        .find({ _id: { $ne: '#sequence' } })
        .toArray()
    ).map((h) => [h._id, h.f]),
  );
  let resources = 0;
  for (const listing of Object.keys(readCollections) as ReadListing[]) {
    const docs = await db.collection<Document>(collectionName(readCollections[listing], generation)).find({}).toArray();
    for (const doc of docs) {
      const { fingerprint } = publicVersion(listing, doc);
      const key = `${listing}|${String(doc._id)}`;
      if (sinceRebuild && !heads.has(key)) continue;
      expect(heads.get(key) ?? null, `${key}: the feed's last version is not the listing's`).toBe(fingerprint);
      if (fingerprint !== null) {
        resources++;
        const type = Object.entries(LISTING_OF).find(([, l]) => l === listing)![0];
        expect(['created', 'changed'], `${type}|${String(doc._id)}`).toContain(last.get(`${type}|${String(doc._id)}`));
      }
    }
  }
  return { changes: records.length, resources };
}
