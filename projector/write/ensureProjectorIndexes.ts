import type { Db } from 'mongodb';
import type { ProjectionCollections } from './projectionCollections.ts';

/** The indexes the projector itself queries by: the clock's due instants and facts by subject. */
export async function ensureProjectorIndexes(db: Db, names: ProjectionCollections): Promise<void> {
  await Promise.all([
    ...Object.values(names.read).map((collection) => db.collection(collection).createIndex({ nextDueAt: 1, _id: 1 }, { name: 'clock_due' })),
    db.collection(names.memberLinks).createIndex({ kind: 1, subjectId: 1 }, { name: 'facts_by_subject' }),
  ]);
}
