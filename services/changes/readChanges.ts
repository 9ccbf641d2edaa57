import type { Db } from 'mongodb';
import { SEQUENCE_ID, type ChangeCollections, type ChangeSequence } from './changeCollections.ts';
import type { ChangeRecord } from './changeRecord.ts';

/** Where a generation's feed stands: the last position given out, and the last one trimmed. */
export interface FeedBounds {
  seq: number;
  trimmedThrough: number;
}

export async function readFeedBounds(db: Db, names: ChangeCollections): Promise<FeedBounds> {
  const doc = await db.collection<ChangeSequence>(names.heads).findOne({ _id: SEQUENCE_ID });
  return { seq: doc?.seq ?? 0, trimmedThrough: doc?.trimmedThrough ?? 0 };
}

/**
 * The changes after position `after`, oldest first, at most `limit`, stopping before the first
 * gap: a position given out whose change is not visible yet (its transaction commits at the same
 * time as the counter, so a gap is a read that raced a commit). The `_id` index serves it.
 */
export async function readChangesAfter(db: Db, names: ChangeCollections, after: number, limit: number): Promise<ChangeRecord[]> {
  const found = await db
    .collection<ChangeRecord>(names.log)
    .find({ _id: { $gt: after } })
    .sort({ _id: 1 })
    .limit(limit)
    .toArray();
  const contiguous: ChangeRecord[] = [];
  let expected = after + 1;
  for (const record of found) {
    if (record._id !== expected) break;
    contiguous.push(record);
    expected++;
  }
  return contiguous;
}
