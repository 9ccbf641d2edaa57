import type { DomainEvent } from '../../services/events/index.ts';
import type { MemberLinkFact } from '../evolve/index.ts';
import { entryRecordIds, resolveEntries, type LoadedEntries } from './competitionEntryRecords.ts';
import { kindOf } from './foldEvents.ts';
import type { DueSubjects } from './planCascade.ts';
import type { ProjectionStore, StateKind, States } from './projectionStore.ts';

export type WithEvents = { [K in StateKind]: Set<string> };

/** What a batch starts from: the stored states it folds or sweeps, and the stored facts of its persons. */
export interface LoadedBatch {
  states: States;
  /** Aggregates with events in the batch: only their states are written. */
  withEvents: WithEvents;
  /** The stored dancer link facts of the batch's persons, by fact id (empty unless asked for). */
  storedFacts: Map<string, MemberLinkFact>;
  /** The entries the events name, by competition, as loaded (already put into the competitions' states). */
  entries: Map<string, LoadedEntries>;
}

export const noneDue: DueSubjects = { competitions: [], persons: [], coaches: [], clubs: [] };

/**
 * Loads the states of the aggregates with events and of the competitions and persons that fell
 * due, the entries the events name (put into their competitions' states), and, when `compareFacts`, their persons' stored dancer link facts (which planCascade
 * compares with the new ones to re-derive only the subjects whose facts change).
 */
export async function loadBatch(
  store: ProjectionStore,
  events: readonly DomainEvent[],
  due: DueSubjects,
  compareFacts: boolean,
): Promise<LoadedBatch> {
  const withEvents: WithEvents = { competition: new Set(), person: new Set(), club: new Set() };
  for (const event of events) withEvents[kindOf(event)].add(event.aggregateId);
  const personIds = [...new Set([...withEvents.person, ...due.persons])];
  const named = entryRecordIds(events);
  const [competition, person, club, storedFacts, entryRecords] = await Promise.all([
    store.loadStates('competition', [...new Set([...withEvents.competition, ...due.competitions])]),
    store.loadStates('person', personIds),
    store.loadStates('club', [...withEvents.club]),
    compareFacts ? store.loadMemberFacts('dancer', personIds) : [],
    store.loadCompetitionEntries(named),
  ]);
  return {
    states: { competition, person, club },
    withEvents,
    storedFacts: new Map(storedFacts.map((f) => [f._id, f])),
    entries: resolveEntries(competition, entryRecords, named),
  };
}
