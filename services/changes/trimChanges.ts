import type { Db, WriteConcern } from 'mongodb';
import { SEQUENCE_ID, type ChangeCollections, type ChangeSequence } from './changeCollections.ts';
import type { ChangeRecord } from './changeRecord.ts';

export interface ChangeRetention {
  /** Changes older than this are trimmed. */
  readonly maxAgeMs: number;
  /** At most this many changes are kept. */
  readonly maxCount: number;
}

const durable: WriteConcern = { w: 'majority', journal: true };
/** Changes read and deleted per round: one bounded delete on the `_id` index. */
const ROUND = 5_000;

/**
 * Trims the oldest changes past the retention, oldest first. The trimmed position is recorded
 * before the changes are deleted, so a reader that finds a change missing knows whether it was
 * trimmed (410) or is not visible yet. Several instances may trim at once: `$max` and deleting
 * by range make that harmless. Returns how many were deleted.
 */
export async function trimChanges(db: Db, names: ChangeCollections, retention: ChangeRetention, now: Date, rounds = 20): Promise<number> {
  const sequences = db.collection<ChangeSequence>(names.heads);
  const log = db.collection<ChangeRecord>(names.log);
  let deleted = 0;
  for (let round = 0; round < rounds; round++) {
    const sequence = await sequences.findOne({ _id: SEQUENCE_ID });
    if (!sequence) return deleted;
    const oldest = await log
      .find({ _id: { $gt: sequence.trimmedThrough } }, { projection: { at: 1 } })
      .sort({ _id: 1 })
      .limit(ROUND)
      .toArray();
    const cutoff = new Date(now.getTime() - retention.maxAgeMs);
    let through = Math.min(sequence.seq - retention.maxCount, sequence.trimmedThrough + ROUND);
    for (const record of oldest) if (record.at < cutoff) through = Math.max(through, record._id);
    if (through <= sequence.trimmedThrough) return deleted;
    await sequences.updateOne({ _id: SEQUENCE_ID }, { $max: { trimmedThrough: through } }, { writeConcern: durable });
    const result = await log.deleteMany({ _id: { $lte: through } }, { writeConcern: durable });
    deleted += result.deletedCount;
  }
  return deleted;
}
