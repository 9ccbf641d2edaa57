import type { DomainEvent } from '../../services/events/index.ts';
import type { Outcome, ProjectionConfig } from '../evolve/index.ts';
import { foldEvents, kindOf } from './foldEvents.ts';
import { planCascade, type DueSubjects } from './planCascade.ts';
import type { ProjectionStore, StateKind } from './projectionStore.ts';
import { writeCascade, type Written } from './writeCascade.ts';

export interface BatchInput {
  /** Valid events in partition order (events of one aggregate keep their relative order). */
  events: readonly DomainEvent[];
  /** Clock sweep: aggregates and derived subjects whose transitions fell due. */
  due?: Partial<DueSubjects>;
}

export interface BatchResult {
  /** One outcome per input event, in input order. */
  outcomes: Outcome[];
  written: Written;
}

/**
 * Projects a batch of events, or a clock sweep, in three named steps: fold the events into the
 * loaded states (foldEvents), compute the own documents and facts and the coaches and clubs they
 * cascade into (planCascade), then write everything, each document at most once, in the order
 * `writeOrder` declares (writeCascade). Every input gives the same documents as projecting its
 * events one by one; a crash between any two writes is finished by a replay (events) or by the
 * next sweep (clock).
 */
export async function projectBatch(input: BatchInput, store: ProjectionStore, config: ProjectionConfig, now: Date): Promise<BatchResult> {
  const due: DueSubjects = { competitions: [], persons: [], coaches: [], clubs: [], ...input.due };
  const withEvents: Record<StateKind, Set<string>> = { competition: new Set(), person: new Set(), club: new Set() };
  for (const event of input.events) withEvents[kindOf(event)].add(event.aggregateId);
  const personIds = [...new Set([...withEvents.person, ...due.persons])];
  const [competition, person, club, storedFacts] = await Promise.all([
    store.loadStates('competition', [...new Set([...withEvents.competition, ...due.competitions])]),
    store.loadStates('person', personIds),
    store.loadStates('club', [...withEvents.club]),
    store.loadMemberFacts('dancer', personIds),
  ]);
  const states = { competition, person, club };
  const { outcomes, replayed } = foldEvents(input.events, states, config);
  const cascade = planCascade({ states, withEvents, due, replayed, storedFacts: new Map(storedFacts.map((f) => [f._id, f])) }, now, config);
  const written = await writeCascade(cascade, store, config, now);
  await store.signalChanged(new Set(Object.keys(written).filter((listing) => written[listing as keyof Written] > 0)));
  return { outcomes, written };
}
