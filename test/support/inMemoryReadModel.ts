import type { DomainEvent } from '../../services/events/index.ts';
import type {
  ClubDocument,
  CoachDocument,
  CompetitionDocument,
  DancerDocument,
  JudgeDocument,
} from '../../services/readModel/documents.ts';
import { clubReadDocument, deriveClubMembership } from '../../projector/evolve/clubDocuments.ts';
import { initialClubState, type ClubState } from '../../projector/evolve/clubState.ts';
import { competitionReadDocument } from '../../projector/evolve/competitionDocument.ts';
import {
  initialCompetitionState,
  type CompetitionEntry,
  type CompetitionState,
  type CompetitionWithCategories,
} from '../../projector/evolve/competitionState.ts';
import { evolveClub, type ClubEvent } from '../../projector/evolve/evolveClub.ts';
import { evolveCompetition, type CompetitionEvent } from '../../projector/evolve/evolveCompetition.ts';
import { evolvePerson, type PersonEvent } from '../../projector/evolve/evolvePerson.ts';
import type { MemberLinkFact } from '../../projector/evolve/memberLinks.ts';
import {
  coachReadDocument,
  coachStaffFacts,
  dancerLinkFacts,
  deriveCoachListing,
  roleReadDocuments,
} from '../../projector/evolve/personDocuments.ts';
import { initialPersonState, type PersonState } from '../../projector/evolve/personState.ts';
import type { Outcome, ProjectionConfig } from '../../projector/evolve/types.ts';
import { subjectsReachedBy } from '../../projector/write/subjectsReachedBy.ts';

// The writer protocol over Maps instead of MongoDB: the reference the I/O writer
// follows, and what the unit tests use to check cross-aggregate results and determinism.

export interface InMemoryReadModel {
  apply(event: DomainEvent, now: Date): Outcome;
  /** The clock: re-derives every record at `now` (a real clock only takes those with nextDueAt <= now). */
  sweep(now: Date): void;
  /** The states as competition_states holds them, without their entries, with their categories (competition_categories holds them). */
  readonly competitionStates: Map<string, CompetitionWithCategories>;
  /** The entries, by `<competitionId>|<entryId>`, as competition_entries holds them (without the writer's replay bookkeeping). */
  readonly competitionEntries: Map<string, CompetitionEntry>;
  readonly personStates: Map<string, PersonState>;
  readonly clubStates: Map<string, ClubState>;
  readonly memberLinks: Map<string, MemberLinkFact>;
  readonly competitions: Map<string, CompetitionDocument>;
  readonly dancers: Map<string, DancerDocument>;
  readonly coaches: Map<string, CoachDocument>;
  readonly judges: Map<string, JudgeDocument>;
  readonly clubs: Map<string, ClubDocument>;
}

const put = <T>(map: Map<string, T>, id: string, doc: T | null): void => {
  if (doc === null) map.delete(id);
  else map.set(id, doc);
};

export function createInMemoryReadModel(config: ProjectionConfig): InMemoryReadModel {
  const m: InMemoryReadModel = {
    apply,
    sweep,
    competitionStates: new Map(),
    competitionEntries: new Map(),
    personStates: new Map(),
    clubStates: new Map(),
    memberLinks: new Map(),
    competitions: new Map(),
    dancers: new Map(),
    coaches: new Map(),
    judges: new Map(),
    clubs: new Map(),
  };

  const factsOf = (kind: 'club' | 'coach', subjectId: string): MemberLinkFact[] =>
    [...m.memberLinks.values()].filter((f) => f.kind === kind && f.subjectId === subjectId);

  function refreshClub(clubId: string, now: Date): void {
    const club = m.clubStates.get(clubId);
    if (!club) return;
    put(m.clubs, clubId, clubReadDocument(club, deriveClubMembership(club, factsOf('club', clubId), now, config)));
  }

  /** Returns the staff facts it rewrote. */
  function refreshCoach(coachId: string, now: Date): MemberLinkFact[] {
    const coach = m.personStates.get(coachId);
    const listing = coach ? deriveCoachListing(coach, factsOf('coach', coachId), now, config) : null;
    if (!coach || !listing) return [];
    put(m.coaches, coachId, coachReadDocument(coach, listing));
    const facts = coachStaffFacts(coach, listing);
    for (const fact of facts) m.memberLinks.set(fact._id, fact);
    return facts;
  }

  function refreshPerson(personId: string, now: Date): void {
    // The stored state stays where its last event left it: a later event may still arrive with
    // an occurredAt before `now` (lag), and must find the transitions after it not yet applied.
    const state = m.personStates.get(personId);
    if (!state) return;
    const docs = roleReadDocuments(state, now, config);
    put(m.dancers, personId, docs.dancer);
    put(m.judges, personId, docs.judge);
    const facts = dancerLinkFacts(state, now, config);
    for (const fact of facts) m.memberLinks.set(fact._id, fact);
    // Every subject the facts reach, changed or not: the oracle has no stored facts to compare.
    const { coaches, clubs } = subjectsReachedBy(state, facts);
    for (const coachId of coaches) for (const clubId of subjectsReachedBy(undefined, refreshCoach(coachId, now)).clubs) clubs.add(clubId);
    for (const clubId of clubs) refreshClub(clubId, now);
  }

  function apply(event: DomainEvent, now: Date): Outcome {
    const id = event.aggregateId;
    if (event.type.startsWith('competition.')) {
      const result = evolveCompetition(competitionWithEntry(id, event), event as CompetitionEvent, config);
      const { entries, ...stored } = result.state;
      m.competitionStates.set(id, stored);
      const entryId = namedEntry(event);
      if (entryId !== null) put(m.competitionEntries, `${id}|${entryId}`, entries[entryId] ?? null);
      put(m.competitions, id, competitionReadDocument(stored, now, config));
      return result.outcome;
    }
    if (event.type.startsWith('person.')) {
      const result = evolvePerson(m.personStates.get(id) ?? initialPersonState(id), event as PersonEvent, config);
      m.personStates.set(id, result.state);
      refreshPerson(id, now);
      return result.outcome;
    }
    const result = evolveClub(m.clubStates.get(id) ?? initialClubState(id), event as ClubEvent, config);
    m.clubStates.set(id, result.state);
    refreshClub(id, now);
    return result.outcome;
  }

  /** The stored state with the one entry the event names, as the writer loads it. */
  function competitionWithEntry(id: string, event: DomainEvent): CompetitionState {
    const stored = m.competitionStates.get(id);
    const state: CompetitionState = stored ? { ...stored, entries: {} } : initialCompetitionState(id);
    const entryId = namedEntry(event);
    const entry = entryId === null ? undefined : m.competitionEntries.get(`${id}|${entryId}`);
    if (entryId !== null && entry) state.entries[entryId] = entry;
    return state;
  }

  function sweep(now: Date): void {
    for (const id of [...m.personStates.keys()].sort()) refreshPerson(id, now);
    for (const id of [...m.clubStates.keys()].sort()) refreshClub(id, now);
    for (const [id, state] of m.competitionStates) put(m.competitions, id, competitionReadDocument(state, now, config));
  }

  return m;
}

const namedEntry = (event: DomainEvent): string | null =>
  event.type === 'competition.entry_submitted' || event.type === 'competition.entry_changed' || event.type === 'competition.entry_withdrawn'
    ? event.data.entryId
    : null;
