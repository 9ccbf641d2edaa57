import type { DomainEvent } from '../../services/events/index.ts';
import type { Outcome, ProjectionConfig } from '../evolve/index.ts';
import { linksAfterFold, linksBeforeFold } from './batchLinks.ts';
import { foldEvents } from './foldEvents.ts';
import { loadBatch, noneDue } from './loadBatch.ts';
import { planCascade } from './planCascade.ts';
import type { ProjectionStore } from './projectionStore.ts';
import { writeCascade, type Written } from './writeCascade.ts';

export interface BatchResult {
  /** One outcome per input event, in input order. */
  outcomes: Outcome[];
  written: Written;
}

/**
 * The live consumer's batch: fold the events (valid, in partition order) into their loaded states
 * (foldEvents), compute the own documents and facts and the coaches and clubs they cascade into
 * (planCascade), then write everything, each document at most once, in the order `writeOrder`
 * declares (writeCascade). Gives the same documents as projecting the events one by one; a crash
 * between any two writes is finished by the replay of the batch.
 */
export async function projectEvents(
  events: readonly DomainEvent[],
  store: ProjectionStore,
  config: ProjectionConfig,
  now: Date,
): Promise<BatchResult> {
  const loaded = await loadBatch(store, events, noneDue, false);
  const links = await linksBeforeFold(store, loaded, events, noneDue, now, config);
  const { outcomes, replayed } = foldEvents(events, loaded.states, config);
  const storedFacts = await linksAfterFold(store, loaded, links, replayed, now, config);
  const plan = planCascade({ ...loaded, storedFacts, links, due: noneDue, replayed }, now, config);
  const written = await writeCascade(plan, { store, config, now });
  return { outcomes, written };
}
