import type { Db } from 'mongodb';
import { META_COLLECTION } from './readModelMeta.ts';

/**
 * How far the latest `npm run rebuild` got, kept beside the meta document so that the running
 * projectors export it (the command itself serves no metrics: it runs wherever an operator
 * starts it, on no port Prometheus knows) and `npm run status` prints it.
 */
export interface RebuildProgress {
  /** Share of the topic replayed (0..1); 1 once the new generation is live. */
  ratio: number;
  events: number;
  startedAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

const REBUILD = 'rebuild';

interface ProgressDocument extends RebuildProgress {
  _id: string;
}

export async function recordRebuildProgress(db: Db, progress: RebuildProgress): Promise<void> {
  await db.collection<ProgressDocument>(META_COLLECTION).replaceOne({ _id: REBUILD }, progress, { upsert: true });
}

/** The latest rebuild's progress; null when none ever ran. */
export async function readRebuildProgress(db: Db): Promise<RebuildProgress | null> {
  const doc = await db.collection<ProgressDocument>(META_COLLECTION).findOne({ _id: REBUILD });
  return doc && { ratio: doc.ratio, events: doc.events, startedAt: doc.startedAt, updatedAt: doc.updatedAt, finishedAt: doc.finishedAt };
}
