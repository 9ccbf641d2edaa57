import type { DomainEvent } from '../../services/events/index.ts';
import type { MemberLinkFact } from '../evolve/index.ts';
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
}

export const noneDue: DueSubjects = { competitions: [], persons: [], coaches: [], clubs: [] };

/**
 * Loads the states of the aggregates with events and of the competitions and persons that fell
 * due, and, when `compareFacts`, their persons' stored dancer link facts (which planCascade
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
  const [competition, person, club, storedFacts] = await Promise.all([
    store.loadStates('competition', [...new Set([...withEvents.competition, ...due.competitions])]),
    store.loadStates('person', personIds),
    store.loadStates('club', [...withEvents.club]),
    compareFacts ? store.loadMemberFacts('dancer', personIds) : [],
  ]);
  return { states: { competition, person, club }, withEvents, storedFacts: new Map(storedFacts.map((f) => [f._id, f])) };
}
