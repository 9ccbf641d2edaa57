import type { Db, Document } from 'mongodb';

/**
 * How many documents of `collection` match `filter`: MongoDB's `count` command with the filter,
 * exact on an unsharded collection, and no hint, so the planner counts on the keys of an index
 * that leads with the filter's fields. Not `countDocuments`: that is an aggregate (`$match`, then
 * `$group`) and the local stand-in runs an aggregate, or any hinted command, by loading every
 * matching document: on the benchmark model a hinted `countDocuments` of the default listing
 * took several times as long as this count (docs/performance.md).
 */
export async function countMatching(db: Db, collection: string, filter: Document, maxTimeMS: number): Promise<number> {
  const reply = await db.command({ count: collection, query: filter, maxTimeMS });
  return Number(reply.n);
}
