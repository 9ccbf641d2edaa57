import type { DomainEvent } from '../../services/events/index.ts';
import type { Outcome, ProjectionConfig } from '../evolve/index.ts';
import { changedEntryRecords } from './competitionEntryRecords.ts';
import { linksBeforeFold } from './batchLinks.ts';
import { changedLinkRecords } from './personLinkRecords.ts';
import { foldEvents } from './foldEvents.ts';
import { loadBatch, noneDue } from './loadBatch.ts';
import { statesWithEvents } from './planCascade.ts';
import type { ProjectionStore } from './projectionStore.ts';

/**
 * What a replay into a generation nobody reads yet leaves to its end, where each is derived once
 * from its final state (deriveDeferred) instead of in every chunk that touches it: the chunks
 * write the aggregates' states alone (the measured share of the replay this saves is in
 * docs/performance.md, "The rebuild").
 */
export interface DeferredSubjects {
  /** Competitions and persons whose states the replay changed: their documents (and facts) wait. */
  readonly competitions: Set<string>;
  readonly persons: Set<string>;
  readonly coaches: Set<string>;
  readonly clubs: Set<string>;
}

export const noneDeferred = (): DeferredSubjects => ({ competitions: new Set(), persons: new Set(), coaches: new Set(), clubs: new Set() });

/**
 * A rebuild's chunk: the states of the aggregates with events (and the entries they changed), nothing derived from them; who to
 * derive at the end is noted in `deferred` (clubs with events derive their own document from
 * their state, like any club). Nothing is compared with stored facts: every subject is derived.
 */
export async function replayChunk(
  events: readonly DomainEvent[],
  store: ProjectionStore,
  config: ProjectionConfig,
  deferred: DeferredSubjects,
): Promise<Outcome[]> {
  const loaded = await loadBatch(store, events, noneDue, false);
  const { states, withEvents, entries } = loaded;
  // No facts are computed until the end (the books say so: factsAt null), so `now` is not read.
  const links = await linksBeforeFold(store, loaded, events, noneDue, new Date(0), config);
  const { outcomes } = foldEvents(events, states, config);
  for (const id of withEvents.competition) deferred.competitions.add(id);
  for (const id of withEvents.person) deferred.persons.add(id);
  for (const id of withEvents.club) deferred.clubs.add(id);
  // Entries before states, as in a live batch (ORDER_RULES).
  await store.writeCompetitionEntries(changedEntryRecords(states.competition, entries));
  const { records, books } = changedLinkRecords(states.person, links, withEvents.person, null);
  await store.writePersonLinks(records);
  await store.writeStates(statesWithEvents(states, withEvents, links, books));
  return outcomes;
}
