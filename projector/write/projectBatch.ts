import type { DomainEvent } from '../../services/events/index.ts';
import type { Outcome, ProjectionConfig } from '../evolve/index.ts';
import { foldEvents, kindOf, type BatchStates } from './foldEvents.ts';
import { planCascade, statesWithEvents, type DueSubjects } from './planCascade.ts';
import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import type { ProjectionStore, StateKind } from './projectionStore.ts';
import { writeCascade, type Written } from './writeCascade.ts';
import { runIsolating } from '../consume/runIsolating.ts';

export interface BatchInput {
  /** Valid events in partition order (events of one aggregate keep their relative order). */
  events: readonly DomainEvent[];
  /** Clock sweep: aggregates and derived subjects whose transitions fell due. */
  due?: Partial<DueSubjects>;
}

/**
 * What a replay into a generation nobody reads yet leaves to its end, where each is derived once
 * from its final state (deriveDeferred) instead of in every chunk that touches it: the chunks
 * write the aggregates' states alone. Measured on the 502,287-event demo history into the local
 * SecantusDB: loading the coaches' and clubs' facts, comparing members' facts and deriving them
 * were 64 s of the replay's 110 s. On 1,007,694 events the own documents and dancer link facts
 * the chunks wrote were about two thirds of the replay's writes, each aggregate written again in
 * every chunk that touched it (three on average).
 */
export interface DeferredSubjects {
  /** Competitions and persons whose states the replay changed: their documents (and facts) wait. */
  readonly competitions: Set<string>;
  readonly persons: Set<string>;
  readonly coaches: Set<string>;
  readonly clubs: Set<string>;
}

export const noneDeferred = (): DeferredSubjects => ({ competitions: new Set(), persons: new Set(), coaches: new Set(), clubs: new Set() });

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
  if (deferred && input.events.length > 0) return { outcomes, written: await writeStatesOnly(states, withEvents, deferred, store, now) };
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
 * A deferring replay's chunk: the states of the aggregates with events, nothing derived from
 * them; who to derive at the end is noted in `deferred` (clubs with events derive their own
 * document from their state, like any club).
 */
async function writeStatesOnly(
  states: BatchStates,
  withEvents: Record<StateKind, ReadonlySet<string>>,
  deferred: DeferredSubjects,
  store: ProjectionStore,
  now: Date,
): Promise<Written> {
  for (const id of withEvents.competition) deferred.competitions.add(id);
  for (const id of withEvents.person) deferred.persons.add(id);
  for (const id of withEvents.club) deferred.clubs.add(id);
  await store.writeOwn({
    states: statesWithEvents(states, withEvents),
    docs: { competitions: new Map(), dancers: new Map(), judges: new Map() },
    facts: new Map(),
    stampAt: now.toISOString(),
    versions: new Map(),
  });
  return { competitions: 0, dancers: 0, judges: 0, coaches: 0, clubs: 0 };
}

/** Told of a subject whose derivation failed on its own content: it is left as it is, and the rest go on. */
export type DerivationFailed = (kind: keyof DeferredSubjects, id: string, error: unknown) => void;

/** The read listings a deferring replay's end has made final: nothing writes them again before the switch. */
export type FinalListings = (listings: readonly ReadListing[]) => void;

/** The kinds deriveDeferred derives, in order, and the read listings each one makes final. */
export const DERIVATION_ORDER: ReadonlyArray<{ readonly kind: keyof DeferredSubjects; readonly listings: readonly ReadListing[] }> = [
  { kind: 'competitions', listings: ['competitions'] },
  { kind: 'persons', listings: ['dancers', 'judges'] },
  { kind: 'coaches', listings: ['coaches'] },
  { kind: 'clubs', listings: ['clubs'] },
];

/**
 * Derives what a replay deferred, as clock sweeps (a sweep writes documents and facts, never
 * states), each kind once every document it reads from is stored (DERIVATION_ORDER): the
 * competitions, the persons (their documents and dancer link facts, which add the coaches and
 * clubs they reach to `deferred`), every coach forced (its staff facts written whether or not
 * they changed), then every club. In slices, so no load or transaction holds a whole registry; a
 * club derived with one slice of coaches is derived again, finally, once every staff fact is
 * stored. `final` hears of each listing as soon as its documents are all written (a rebuild
 * starts its index build then); `failed` of a subject whose derivation failed on its own content
 * (left underived, so one bad state cannot fail the whole rebuild). Returns how many of each kind
 * it derived.
 */
export async function deriveDeferred(
  deferred: DeferredSubjects,
  store: ProjectionStore,
  config: ProjectionConfig,
  now: Date,
  final: FinalListings = () => undefined,
  failed: DerivationFailed = (_, __, error) => {
    throw error;
  },
): Promise<Record<keyof DeferredSubjects, number>> {
  const derived = { competitions: 0, persons: 0, coaches: 0, clubs: 0 };
  for (const { kind, listings } of DERIVATION_ORDER) {
    derived[kind] = deferred[kind].size;
    // Only the persons' sweeps collect (the coaches and clubs their facts reach); the coaches'
    // and clubs' own sweeps derive them.
    const collect = kind === 'persons' ? deferred : undefined;
    for (const ids of slices(deferred[kind], DEFERRED_SLICE[kind])) {
      await runIsolating(
        ids,
        async (some) => {
          await projectBatch({ events: [], due: { [kind]: some } }, store, config, now, collect);
          return [...some];
        },
        (id, error) => Promise.resolve(void failed(kind, id, error)).then(() => id),
      );
    }
    deferred[kind].clear();
    final(listings);
  }
  return derived;
}

/**
 * Subjects derived together. A club loads the facts of its whole roster (about 35 dancers and
 * their coaches), a coach a few, a person or a competition its state. In a rebuild of 1,007,694
 * events the heap in use peaked where the derivation runs, at the end of the replay: 509 MB with
 * the 2,500 clubs in one slice of 5,000, 468 MB in slices of 500, 388 MB with coaches in slices
 * of 1,000 and clubs of 250 (peak RSS 769 MB -> 713 MB; under the old-space cap of
 * projector/memoryBound.ts, 593 MB -> 533 MB), for 1.5 % more writes (one run each, sampled
 * every 0.5-1 s).
 */
const DEFERRED_SLICE = { competitions: 500, persons: 2_000, coaches: 1_000, clubs: 250 } as const;

function* slices(ids: ReadonlySet<string>, size: number): Generator<string[]> {
  const all = [...ids];
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}
