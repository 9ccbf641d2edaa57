import type {
  CoachDocument,
  ClubDocument,
  CompetitionDocument,
  DancerDocument,
  JudgeDocument,
} from '../../services/readModel/documents.ts';
import type { ClubState, CompetitionState, MemberLinkFact, PersonState } from '../evolve/index.ts';
import type { CompetitionEntryRecord } from './competitionEntryRecords.ts';
import type { PersonLinkQuery, PersonLinkRecord } from './personLinkRecords.ts';

// The I/O edge of the projector. The cascade (writeCascade) decides what to write; a store only loads and
// writes. MongoProjectionStore is the real one; MemoryProjectionStore (test/support) keeps everything in maps
// and counts operations (unit tests of the pipeline, and the benchmark's "our own cost" run).

export interface StateByKind {
  competition: CompetitionState;
  person: PersonState;
  club: ClubState;
}
export type StateKind = keyof StateByKind;

export interface OwnDocs {
  competitions: Map<string, CompetitionDocument | null>;
  dancers: Map<string, DancerDocument | null>;
  judges: Map<string, JudgeDocument | null>;
}

/** The folded states a batch writes, by kind and id (only the partition's consumer writes a state). */
export type States = { [K in StateKind]: Map<string, StateByKind[K]> };

/**
 * How documents and dancer link facts owned by single aggregates are stamped. They are pure
 * functions of (state, now) and may also come from a clock sweep, so each is stamped with
 * {v: the state's version, at: now} and a write never replaces a document with a higher stamp.
 */
export interface Stamps {
  /** The `now` the documents and facts were computed at (canonical UTC). */
  stampAt: string;
  /** Version of the competition (for its document) or person (for its documents and facts). */
  versions: Map<string, number>;
}

/** A batch's writes owned by single aggregates: states, their documents, the dancer link facts. */
export interface OwnWrites {
  states: States;
  docs: OwnDocs;
  /** Dancer link facts (club membership, coach links), keyed by fact _id. */
  facts: Map<string, MemberLinkFact>;
  /** The entries the batch changed, written before the states (see ORDER_RULES). */
  entries: CompetitionEntryRecord[];
  /** The person link records the batch changed, written before the states likewise. */
  personLinks: PersonLinkRecord[];
  stamps: Stamps;
}

/** Written into every stamped document; a write never replaces a greater stamp. */
export interface Stamp {
  v: number;
  at: string;
}

export interface DerivedDocs {
  coaches: CoachDocument;
  clubs: ClubDocument;
}
export type DerivedListing = keyof DerivedDocs;

/** A derived write stamped with the subject revision it was computed from. */
export interface Stamped<T> {
  id: string;
  value: T;
  rev: number;
}

export interface ProjectionStore {
  /** A competition's state comes without its entries (`entries` empty): they are records of their own. */
  loadStates<K extends StateKind>(kind: K, ids: readonly string[]): Promise<Map<string, StateByKind[K]>>;
  /** The competition entry records of these ids (`<competitionId>|<entryId>`) that exist. */
  loadCompetitionEntries(ids: readonly string[]): Promise<CompetitionEntryRecord[]>;
  /**
   * Each record unless the stored one was written by a batch that started from a newer state
   * (`pv` greater: this writer is stale).
   */
  writeCompetitionEntries(records: readonly CompetitionEntryRecord[]): Promise<void>;
  /** The person link records of these ids (`<personId>|<kind>|<role>|<subjectId>`) that exist. */
  loadPersonLinks(ids: readonly string[]): Promise<PersonLinkRecord[]>;
  /** The person link records the query selects (see PersonLinkQuery). */
  findPersonLinks(query: PersonLinkQuery): Promise<PersonLinkRecord[]>;
  /** Each record unless the stored one was written by a batch that started from a newer state (`pv` greater). */
  writePersonLinks(records: readonly PersonLinkRecord[]): Promise<void>;
  /** The stored facts of these ids that exist (a batch compares the facts it recomputed with them). */
  loadFactsById(ids: readonly string[]): Promise<MemberLinkFact[]>;
  /** Every fact of the subjects, open and closed (the derivations need the history). */
  loadFacts(kind: 'club' | 'coach', subjectIds: readonly string[]): Promise<MemberLinkFact[]>;
  /**
   * The stored facts the members' `memberRole` links produced (a dancer's club and coach facts,
   * a coach's staff facts), so the writer re-derives only the subjects whose facts change.
   */
  loadMemberFacts(memberRole: 'dancer' | 'coach', memberIds: readonly string[]): Promise<MemberLinkFact[]>;
  /** States never go back in version (a consumer fenced out by a rebalance loses); a competition's is stored without its entries, a person's without its links. */
  writeStates(states: States): Promise<void>;
  /** Competition, dancer and judge documents, each under its stamp (a null deletes). */
  writeOwnDocs(docs: OwnDocs, stamps: Stamps): Promise<void>;
  /** Dancer link facts, each under its member's stamp. */
  writeDancerFacts(facts: ReadonlyMap<string, MemberLinkFact>, stamps: Stamps): Promise<void>;
  /** Atomically increments the revision of each subject key (`coach|<id>`, `club|<id>`). */
  bumpRevisions(keys: readonly string[]): Promise<void>;
  readRevisions(keys: readonly string[]): Promise<Map<string, number>>;
  /**
   * Writes each document only if the stored one was computed from an older revision (or is
   * absent); returns the ids written. A null value deletes under the same guard.
   */
  writeDerived<L extends DerivedListing>(listing: L, docs: readonly Stamped<DerivedDocs[L] | null>[]): Promise<Set<string>>;
  /** Coach staff facts, under the coach's revision guard. */
  writeStaffFacts(facts: readonly Stamped<MemberLinkFact>[]): Promise<void>;
  /** Documents whose clock-driven transition is due at or before `now`. */
  findDue(listing: 'competitions' | 'dancers' | 'judges' | 'coaches' | 'clubs', now: Date, limit: number): Promise<string[]>;
  /** Cache-invalidation signal for the API: these listings changed. */
  signalChanged(listings: ReadonlySet<string>): Promise<void>;
}
