import {
  advancePerson,
  competitionReadDocument,
  dancerLinkFacts,
  roleReadDocuments,
  type MemberLinkFact,
  type ProjectionConfig,
} from '../evolve/index.ts';
import { changedEntryRecords, type LoadedEntries } from './competitionEntryRecords.ts';
import { changedLinkRecords, withoutLinks, type LoadedLinks, type PersonLinkBook } from './personLinkRecords.ts';
import type { OwnDocs, OwnWrites, StateKind, States } from './projectionStore.ts';
import { subjectsReachedBy } from './subjectsReachedBy.ts';

/** A clock sweep's subjects: aggregates and derived subjects whose transitions fell due. */
export interface DueSubjects {
  competitions: readonly string[];
  persons: readonly string[];
  coaches: readonly string[];
  clubs: readonly string[];
}

export interface CascadeInput {
  /** Every loaded state, folded: those with events and those the clock swept. */
  states: States;
  /** Aggregates with events in the batch: only their states are written. */
  withEvents: { [K in StateKind]: ReadonlySet<string> };
  due: DueSubjects;
  /** Persons with an event that came back as a duplicate. */
  replayed: ReadonlySet<string>;
  /** The stored dancer link facts of the batch's persons, by fact id. */
  storedFacts: ReadonlyMap<string, MemberLinkFact>;
  /** The entries the events name, by competition, as loaded before the fold. */
  entries: ReadonlyMap<string, LoadedEntries>;
  /**
   * The link records loaded for each person (loadNamedLinks, loadLinkHistory): its state holds
   * their periods, and its facts are recomputed for them alone. A person absent here holds every
   * link in its state, as the pure fold's (the plan's unit tests).
   */
  links?: ReadonlyMap<string, LoadedLinks>;
}

/** What a batch writes, before the coaches and clubs are derived from the stored facts. */
export interface Cascade {
  /** Aggregate states, their documents (but swept persons') and the dancer link facts. */
  own: OwnWrites;
  /** The documents of the persons the clock swept: written last (see writeOrder). */
  swept: OwnDocs;
  /** Coaches to re-derive; a forced one's staff facts all count as changed. */
  coaches: { ids: Set<string>; forced: Set<string> };
  /** Clubs to re-derive (deriving the coaches adds those whose staff facts changed). */
  clubs: Set<string>;
}

/**
 * Computes a batch's own writes at `now` and which coaches and clubs they cascade into.
 *
 * A coach or club is a pure function of its own state, its facts and `now` (changing only at its
 * nextDueAt, which the clock handles), so it is re-derived only when one of its facts differs
 * from the stored one. Most person events (payments, details, corrections) leave the facts as
 * they were, and re-deriving every club of every touched member was most of a batch's cost.
 * A replay after a crash finds the facts already stored: a member whose events come back as
 * duplicates, or that the clock swept, is "forced", and every subject of its facts is derived
 * as if they had changed (the store writes facts only after states, so a stored fact implies a
 * stored state and so a duplicate on replay).
 *
 * Stored states advance only through evolve (to each event's occurredAt), never to `now`: a
 * later event that happened before `now` must find the state as it was at its own instant.
 * Documents are computed at `now` from the unadvanced state. A clock sweep writes documents
 * only, so the partition's consumer stays the one writer of a state.
 */
export function planCascade(input: CascadeInput, now: Date, config: ProjectionConfig): Cascade {
  const { states, withEvents, due } = input;
  const forced = new Set([...input.replayed, ...due.persons]);
  const linkWrites = input.links
    ? changedLinkRecords(states.person, input.links, withEvents.person, now.toISOString())
    : { records: [], books: new Map<string, PersonLinkBook>() };
  const own: OwnWrites = {
    states: statesWithEvents(states, withEvents, input.links, linkWrites.books),
    docs: { competitions: new Map(), dancers: new Map(), judges: new Map() },
    facts: new Map(),
    entries: changedEntryRecords(states.competition, input.entries),
    personLinks: linkWrites.records,
    stamps: {
      stampAt: now.toISOString(),
      versions: new Map([
        ...[...states.competition].map(([id, st]) => [id, st.version] as const),
        ...[...states.person].map(([id, st]) => [id, st.version] as const),
      ]),
    },
  };
  const coaches = { ids: new Set(due.coaches), forced: new Set(due.coaches) };
  const clubs = new Set([...withEvents.club, ...due.clubs]);
  for (const [id, state] of states.competition) own.docs.competitions.set(id, competitionReadDocument(state, now, config));
  for (const [id, stored] of states.person) {
    // Advanced once here (a copy when something fell due) and shared by documents and facts.
    const state = advancePerson(stored, now, config.zone);
    const docs = roleReadDocuments(state, now, config);
    if (state.roles.dancer) own.docs.dancers.set(id, docs.dancer);
    if (state.roles.judge) own.docs.judges.set(id, docs.judge);
    const facts = dancerLinkFacts(state, now, config);
    for (const fact of facts) own.facts.set(fact._id, fact);
    const changed = forced.has(id) ? facts : facts.filter((fact) => !sameFact(input.storedFacts.get(fact._id), fact));
    const reached = subjectsReachedBy(state, changed);
    for (const coach of reached.coaches) coaches.ids.add(coach);
    if (forced.has(id)) for (const coach of reached.coaches) coaches.forced.add(coach);
    for (const club of reached.clubs) clubs.add(club);
  }
  return { own, swept: deferDocs(own.docs, due.persons), coaches, clubs };
}

/**
 * The folded states of the aggregates that had events (the only states a batch writes), a
 * competition's without the entries its fold loaded and a person's without its links: they are
 * written as records of their own, and the store (its byte budgets among it) sees the state as it
 * is stored. A person's state gets its new link book.
 */
export function statesWithEvents(
  states: States,
  withEvents: CascadeInput['withEvents'],
  links?: ReadonlyMap<string, LoadedLinks>,
  books?: ReadonlyMap<string, PersonLinkBook>,
): States {
  const only = <S>(kind: StateKind, all: Map<string, S>): Map<string, S> => new Map([...all].filter(([id]) => withEvents[kind].has(id)));
  const competition = new Map([...only('competition', states.competition)].map(([id, state]) => [id, { ...state, entries: {} }]));
  const person = new Map(
    [...only('person', states.person)].map(([id, state]) => [id, links?.has(id) ? withoutLinks(state, books?.get(id)) : state]),
  );
  return { competition, person, club: only('club', states.club) };
}

/** Whether a newly computed fact says what the stored one says (what a subject is derived from). */
export function sameFact(stored: MemberLinkFact | undefined, fact: MemberLinkFact): boolean {
  if (!stored || stored.open !== fact.open || stored.listed.length !== fact.listed.length) return false;
  return stored.listed.every((interval, i) => interval.from === fact.listed[i]!.from && interval.to === fact.listed[i]!.to);
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
