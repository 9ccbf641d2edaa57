import type { ProjectionConfig } from '../evolve/index.ts';
import { linksAfterFold, linksBeforeFold } from './batchLinks.ts';
import { loadBatch, noneDue } from './loadBatch.ts';
import { planCascade, type DueSubjects } from './planCascade.ts';
import type { ProjectionStore } from './projectionStore.ts';
import { writeCascade, type Written } from './writeCascade.ts';

/**
 * The clock's batch: re-derives at `now` the subjects whose transitions fell due, through the
 * same plan and steps as an event batch. It writes documents and facts, never states, so the
 * partition's consumer stays the one writer of a state; a sweep that dies half-way is found
 * again by the next, through the nextDueAt its last writes carry (see ORDER_RULES).
 */
export async function sweepSubjects(
  due: Partial<DueSubjects>,
  store: ProjectionStore,
  config: ProjectionConfig,
  now: Date,
): Promise<Written> {
  const subjects = { ...noneDue, ...due };
  const loaded = await loadBatch(store, [], subjects, false);
  const links = await linksBeforeFold(store, loaded, [], subjects, now, config);
  const storedFacts = await linksAfterFold(store, loaded, links, new Set(subjects.persons), now, config);
  return writeCascade(planCascade({ ...loaded, storedFacts, links, due: subjects, replayed: new Set() }, now, config), {
    store,
    config,
    now,
  });
}
