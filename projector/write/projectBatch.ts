import type { DomainEvent } from '../../services/events/index.ts';
import {
  advancePerson,
  clubReadDocument,
  coachReadDocument,
  coachStaffFacts,
  competitionReadDocument,
  dancerLinkFacts,
  deriveClubMembership,
  deriveCoachListing,
  evolveClubInPlace,
  evolveCompetitionInPlace,
  evolvePersonInPlace,
  initialClubState,
  initialCompetitionState,
  initialPersonState,
  roleReadDocuments,
  type ClubEvent,
  type CompetitionEvent,
  type MemberLinkFact,
  type Outcome,
  type PersonEvent,
  type ProjectionConfig,
} from '../evolve/index.ts';
import type { OwnDocs, OwnWrites, ProjectionStore, Stamped, StateKind } from './projectionStore.ts';

export interface BatchInput {
  /** Valid events in partition order (events of one aggregate keep their relative order). */
  events: readonly DomainEvent[];
  /** Clock sweep: aggregates and derived subjects whose transitions fell due. */
  due?: { competitions?: string[]; persons?: string[]; coaches?: string[]; clubs?: string[] };
}

export interface BatchResult {
  /** One outcome per input event, in input order. */
  outcomes: Outcome[];
  written: { competitions: number; dancers: number; judges: number; coaches: number; clubs: number };
}

const kindOf = (event: DomainEvent): StateKind =>
  event.type.startsWith('competition.') ? 'competition' : event.type.startsWith('person.') ? 'person' : 'club';

/**
 * Folds a batch and writes the result in three phases, each document at most once:
 *  1. own aggregates: states, competition/dancer/judge documents, dancer link facts;
 *  2. coaches touched by those facts: re-derived from stored facts under a revision guard, and
 *     their staff facts;
 *  3. clubs touched by any fact or club event: re-derived the same way.
 * Phases 2 and 3 read what phase 1 wrote (not the batch's memory), after bumping each subject's
 * revision, so two projector instances working on different partitions converge: the derivation
 * that read the newest revision also read every fact written before it, and older ones lose the
 * guarded write.
 *
 * A coach or club is a pure function of its own state, its facts and `now` (changing only at its
 * nextDueAt, which the clock handles), so it is re-derived only when one of its facts differs
 * from the stored one. Most person events (payments, details, corrections) leave the facts as
 * they were, and re-deriving every club of every touched member was most of the batch's cost.
 * A replay after a crash finds the facts already stored: a member whose events come back as
 * duplicates, or that the clock swept, is "forced", and every subject of its facts is derived
 * as if they had changed (the store writes facts only after states, so a stored fact implies a
 * stored state and so a duplicate on replay).
 */
export async function projectBatch(input: BatchInput, store: ProjectionStore, config: ProjectionConfig, now: Date): Promise<BatchResult> {
  const outcomes: Outcome[] = new Array<Outcome>(input.events.length);
  const ids: Record<StateKind, Set<string>> = { competition: new Set(), person: new Set(), club: new Set() };
  input.events.forEach((e) => ids[kindOf(e)].add(e.aggregateId));
  const eventIds: Record<StateKind, Set<string>> = {
    competition: new Set(ids.competition),
    person: new Set(ids.person),
    club: new Set(ids.club),
  };
  for (const id of input.due?.competitions ?? []) ids.competition.add(id);
  for (const id of input.due?.persons ?? []) ids.person.add(id);

  const [competitions, persons, clubs, storedFacts] = await Promise.all([
    store.loadStates('competition', [...ids.competition]),
    store.loadStates('person', [...ids.person]),
    store.loadStates('club', [...ids.club]),
    store.loadMemberFacts('dancer', [...ids.person]),
  ]);
  const factsBefore = new Map(storedFacts.map((f) => [f._id, f]));
  const forced = new Set(input.due?.persons ?? []);

  // The loaded states belong to this batch alone, so events fold into them in place.
  input.events.forEach((event, i) => {
    const id = event.aggregateId;
    switch (kindOf(event)) {
      case 'competition': {
        const state = competitions.get(id) ?? initialCompetitionState(id);
        competitions.set(id, state);
        outcomes[i] = evolveCompetitionInPlace(state, event as CompetitionEvent, config);
        return;
      }
      case 'person': {
        const state = persons.get(id) ?? initialPersonState(id);
        persons.set(id, state);
        outcomes[i] = evolvePersonInPlace(state, event as PersonEvent, config);
        if (outcomes[i] === 'duplicate') forced.add(id);
        return;
      }
      case 'club': {
        const state = clubs.get(id) ?? initialClubState(id);
        clubs.set(id, state);
        outcomes[i] = evolveClubInPlace(state, event as ClubEvent);
      }
    }
  });
  // Stored states advance only through evolve (to each event's occurredAt), never to `now`: a
  // later event that happened before `now` must find the state as it was at its own instant.
  // Documents are computed at `now` from the unadvanced state. A clock sweep writes documents
  // only, so the partition's consumer stays the one writer of a state.
  const touched =
    (kind: StateKind) =>
    <S>(all: Map<string, S>): Map<string, S> =>
      new Map([...all].filter(([id]) => eventIds[kind].has(id)));
  const own: OwnWrites = {
    states: { competition: touched('competition')(competitions), person: touched('person')(persons), club: touched('club')(clubs) },
    docs: { competitions: new Map(), dancers: new Map(), judges: new Map() },
    facts: new Map(),
    stampAt: now.toISOString(),
    versions: new Map([
      ...[...competitions].map(([id, st]) => [id, st.version] as const),
      ...[...persons].map(([id, st]) => [id, st.version] as const),
    ]),
  };
  const coachesToDerive = new Set(input.due?.coaches ?? []);
  // Coaches whose staff facts' clubs are all derived, changed or not (see forced above).
  const forcedCoaches = new Set(input.due?.coaches ?? []);
  const clubsToDerive = new Set([...ids.club, ...(input.due?.clubs ?? [])]);
  for (const [id, state] of competitions) own.docs.competitions.set(id, competitionReadDocument(state, now, config));
  for (const [id, stored] of persons) {
    // Advanced once here (a copy when something fell due) and shared by documents and facts.
    const state = advancePerson(stored, now, config.zone);
    const docs = roleReadDocuments(state, now, config);
    if (state.roles.dancer) own.docs.dancers.set(id, docs.dancer);
    if (state.roles.judge) own.docs.judges.set(id, docs.judge);
    if (state.roles.coach) {
      coachesToDerive.add(id);
      if (forced.has(id)) forcedCoaches.add(id);
    }
    for (const fact of dancerLinkFacts(state, now, config)) {
      own.facts.set(fact._id, fact);
      if (!forced.has(id) && sameFact(factsBefore.get(fact._id), fact)) continue;
      (fact.kind === 'coach' ? coachesToDerive : clubsToDerive).add(fact.subjectId);
      if (fact.kind === 'coach' && forced.has(id)) forcedCoaches.add(fact.subjectId);
    }
  }
  // A swept document's nextDueAt is what tells the clock the transition is still to do, and the
  // clock has no log to replay: the documents of swept persons are written last, after
  // everything their transition cascades into, so a sweep that dies half-way is found again.
  const sweptDocs = deferDocs(own.docs, input.due?.persons ?? []);
  await store.writeOwn(own);
  await store.bumpRevisions([...[...coachesToDerive].map((id) => `coach|${id}`), ...[...clubsToDerive].map((id) => `club|${id}`)]);

  const coaches = await deriveCoaches([...coachesToDerive], forcedCoaches, store, config, now, clubsToDerive);
  const clubsWritten = await deriveClubs([...clubsToDerive], store, config, now);
  // Coach documents after the clubs their staff facts reach, for the same reason.
  const coachesWritten = coaches.length === 0 ? 0 : (await store.writeDerived('coaches', coaches)).size;
  if (sweptDocs.dancers.size + sweptDocs.judges.size > 0) {
    await store.writeOwn({
      ...own,
      states: { competition: new Map(), person: new Map(), club: new Map() },
      docs: sweptDocs,
      facts: new Map(),
    });
  }

  const changed = new Set<string>();
  if (own.docs.competitions.size > 0) changed.add('competitions');
  if (own.docs.dancers.size + sweptDocs.dancers.size > 0) changed.add('dancers');
  if (own.docs.judges.size + sweptDocs.judges.size > 0) changed.add('judges');
  if (coachesWritten > 0) changed.add('coaches');
  if (clubsWritten > 0) changed.add('clubs');
  await store.signalChanged(changed);
  return {
    outcomes,
    written: {
      competitions: own.docs.competitions.size,
      dancers: own.docs.dancers.size + sweptDocs.dancers.size,
      judges: own.docs.judges.size + sweptDocs.judges.size,
      coaches: coachesWritten,
      clubs: clubsWritten,
    },
  };
}

/**
 * Derives the coaches and publishes their staff facts (each under the coach's revision, so an
 * older derivation never replaces a newer one's), adding the clubs those facts change to
 * `clubsToDerive`. Returns the coach documents, for the caller to write after the clubs.
 */
async function deriveCoaches(
  coachIds: string[],
  forced: ReadonlySet<string>,
  store: ProjectionStore,
  config: ProjectionConfig,
  now: Date,
  clubsToDerive: Set<string>,
): Promise<Stamped<ReturnType<typeof coachReadDocument>>[]> {
  if (coachIds.length === 0) return [];
  const [revs, states, facts, storedStaff] = await Promise.all([
    store.readRevisions(coachIds.map((id) => `coach|${id}`)),
    store.loadStates('person', coachIds),
    store.loadFacts('coach', coachIds),
    store.loadMemberFacts('coach', coachIds),
  ]);
  const stored = new Map(storedStaff.map((f) => [f._id, f]));
  const factsBySubject = groupBy(facts, (f) => f.subjectId);
  const docs: Stamped<ReturnType<typeof coachReadDocument>>[] = [];
  const staffFacts: Stamped<MemberLinkFact>[] = [];
  for (const id of coachIds) {
    const state = states.get(id);
    if (!state?.roles.coach) continue;
    const current = advancePerson(state, now, config.zone);
    const listing = deriveCoachListing(current, factsBySubject.get(id) ?? [], now, config);
    if (!listing) continue;
    const rev = revs.get(`coach|${id}`) ?? 0;
    docs.push({ id, value: coachReadDocument(current, listing), rev });
    for (const fact of coachStaffFacts(current, listing)) staffFacts.push({ id: fact._id, value: fact, rev });
  }
  if (staffFacts.length > 0) {
    await store.writeStaffFacts(staffFacts);
    const clubs = new Set(
      staffFacts.filter((f) => forced.has(f.value.memberId) || !sameFact(stored.get(f.id), f.value)).map((f) => f.value.subjectId),
    );
    await store.bumpRevisions([...clubs].map((id) => `club|${id}`));
    for (const id of clubs) clubsToDerive.add(id);
  }
  return docs;
}

/** Moves the dancer and judge documents of `ids` out of `docs` into the returned set. */
function deferDocs(docs: OwnDocs, ids: readonly string[]): OwnDocs {
  const deferred: OwnDocs = { competitions: new Map(), dancers: new Map(), judges: new Map() };
  const move = <D>(from: Map<string, D>, to: Map<string, D>, id: string): void => {
    if (!from.has(id)) return;
    to.set(id, from.get(id)!);
    from.delete(id);
  };
  for (const id of ids) {
    move(docs.dancers, deferred.dancers, id);
    move(docs.judges, deferred.judges, id);
  }
  return deferred;
}

/** Whether a newly computed fact says what the stored one says (what a subject is derived from). */
function sameFact(stored: MemberLinkFact | undefined, fact: MemberLinkFact): boolean {
  if (!stored || stored.open !== fact.open || stored.listed.length !== fact.listed.length) return false;
  return stored.listed.every((interval, i) => interval.from === fact.listed[i]!.from && interval.to === fact.listed[i]!.to);
}

async function deriveClubs(clubIds: string[], store: ProjectionStore, config: ProjectionConfig, now: Date): Promise<number> {
  if (clubIds.length === 0) return 0;
  const [revs, states, facts] = await Promise.all([
    store.readRevisions(clubIds.map((id) => `club|${id}`)),
    store.loadStates('club', clubIds),
    store.loadFacts('club', clubIds),
  ]);
  const factsBySubject = groupBy(facts, (f) => f.subjectId);
  const docs: Stamped<ReturnType<typeof clubReadDocument>>[] = [];
  for (const id of clubIds) {
    const state = states.get(id);
    if (!state) continue;
    const membership = deriveClubMembership(state, factsBySubject.get(id) ?? [], now, config);
    docs.push({ id, value: clubReadDocument(state, membership), rev: revs.get(`club|${id}`) ?? 0 });
  }
  return (await store.writeDerived('clubs', docs)).size;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
