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

/**
 * Coaches and clubs a replay into a generation nobody reads yet leaves to its end: there each is
 * derived once from its final facts (deriveDeferred), instead of in every chunk that touches one
 * of its members. Measured on the 502,287-event demo history into the local SecantusDB: loading
 * the subjects' facts, comparing members' facts and deriving were 64 s of the replay's 110 s.
 */
export interface DeferredSubjects {
  readonly coaches: Set<string>;
  readonly clubs: Set<string>;
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
export async function projectBatch(
  input: BatchInput,
  store: ProjectionStore,
  config: ProjectionConfig,
  now: Date,
  deferred?: DeferredSubjects,
): Promise<BatchResult> {
  const due: DueSubjects = { competitions: [], persons: [], coaches: [], clubs: [], ...input.due };
  const withEvents: Record<StateKind, Set<string>> = { competition: new Set(), person: new Set(), club: new Set() };
  for (const event of input.events) withEvents[kindOf(event)].add(event.aggregateId);
  const personIds = [...new Set([...withEvents.person, ...due.persons])];
  const [competition, person, club, storedFacts] = await Promise.all([
    store.loadStates('competition', [...new Set([...withEvents.competition, ...due.competitions])]),
    store.loadStates('person', personIds),
    store.loadStates('club', [...withEvents.club]),
    // Deferred, every subject of a fact is collected, changed or not: no need to compare.
    deferred ? [] : store.loadMemberFacts('dancer', personIds),
  ]);
  const states = { competition, person, club };
  const { outcomes, replayed } = foldEvents(input.events, states, config);
  const cascade = planCascade({ states, withEvents, due, replayed, storedFacts: new Map(storedFacts.map((f) => [f._id, f])) }, now, config);
  if (deferred) {
    for (const id of cascade.coaches.ids) deferred.coaches.add(id);
    for (const id of cascade.clubs) deferred.clubs.add(id);
    cascade.coaches = { ids: new Set(), forced: new Set() };
    cascade.clubs = new Set();
  }
  const written = await writeCascade(cascade, store, config, now);
  await store.signalChanged(new Set(Object.keys(written).filter((listing) => written[listing as keyof Written] > 0)));
  return { outcomes, written };
}

/**
 * Derives the subjects a replay deferred, as clock sweeps of them: every coach forced (its staff
 * facts written whether or not they changed), then every club, from the facts stored by then.
 * In slices, so no load or transaction holds a whole registry; a club derived with one slice of
 * coaches is derived again, finally, once every staff fact is stored.
 */
export async function deriveDeferred(
  deferred: DeferredSubjects,
  store: ProjectionStore,
  config: ProjectionConfig,
  now: Date,
): Promise<void> {
  for (const coaches of slices(deferred.coaches, DEFERRED_SLICE.coaches))
    await projectBatch({ events: [], due: { coaches } }, store, config, now);
  for (const clubs of slices(deferred.clubs, DEFERRED_SLICE.clubs)) await projectBatch({ events: [], due: { clubs } }, store, config, now);
}

/**
 * Subjects derived together. A club loads the facts of its whole roster (about 35 dancers and
 * their coaches), a coach a few. In a rebuild of 1,007,694 events the heap in use peaked where
 * the derivation runs, at the end of the replay: 509 MB with the 2,500 clubs in one slice of
 * 5,000, 468 MB in slices of 500, 388 MB with coaches in slices of 1,000 and clubs of 250 (peak
 * RSS 769 MB -> 713 MB; under the memory bound of bench/memoryBound.ts's old-space cap, 593 MB
 * -> 533 MB), for 1.5 % more writes (one run each, sampled every 0.5-1 s).
 */
const DEFERRED_SLICE = { coaches: 1_000, clubs: 250 } as const;

function* slices(ids: ReadonlySet<string>, size: number): Generator<string[]> {
  const all = [...ids];
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}
