import type { Db } from 'mongodb';
import type { DomainEvent } from '../../services/events/index.ts';
import { createInMemoryReadModel } from './inMemoryReadModel.ts';
import type { ProjectionConfig } from '../../projector/evolve/index.ts';
import { projectionCollections } from '../../projector/write/projectionCollections.ts';

export type Listing = 'competitions' | 'dancers' | 'judges' | 'coaches' | 'clubs';
export const listings: Listing[] = ['competitions', 'dancers', 'judges', 'coaches', 'clubs'];
export type Snapshot = Record<Listing, Record<string, unknown>[]>;

/** The read documents of a generation, without the writer's guard fields, sorted by id. */
export async function readModelSnapshot(db: Db, generation: number): Promise<Snapshot> {
  const names = projectionCollections(generation);
  const out = {} as Snapshot;
  for (const listing of listings) {
    const docs = await db
      .collection(names.read[listing])
      .find({ registryState: { $ne: 'GONE' } }, { projection: { stamp: 0, rev: 0 } })
      .toArray();
    out[listing] = docs.sort((a, b) => (String(a._id) < String(b._id) ? -1 : 1));
  }
  return out;
}

/** What the per-event reference model gives for the same events at the same now. */
export function referenceSnapshot(events: readonly DomainEvent[], config: ProjectionConfig, now: Date): Snapshot {
  const model = createInMemoryReadModel(config);
  for (const event of events) model.apply(event, now);
  model.sweep(now);
  const out = {} as Snapshot;
  for (const listing of listings) {
    out[listing] = [...model[listing].entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, d]) => d as unknown as Record<string, unknown>);
  }
  return out;
}
