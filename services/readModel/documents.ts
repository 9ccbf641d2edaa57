// Shapes of the documents the API reads. One collection per listing; every document holds the
// public fields exactly as the API returns them, plus `q` (query keys: filters and sort keys),
// `s` (search keys) and `nextDueAt` (for the projector clock), none of them ever returned.
//
// Instants are canonical UTC strings from Date.prototype.toISOString()
// ("2025-03-01T10:00:00.000Z"), so that string order is time order and `$gte` works on them.
// Calendar days are "YYYY-MM-DD". `nextDueAt` is a BSON Date so the clock can `$lte: new Date()`.
import type { Category } from '../../schemas/api/category.ts';
import type { ClubDetail, ClubLocation } from '../../schemas/api/club.ts';
import type { Competition } from '../../schemas/api/competition.ts';
import type { Coach, Dancer, Judge } from '../../schemas/api/registryPeople.ts';
import type { JudgePosition } from '../../schemas/enumValues.ts';

/** Collection names of the read model the API reads (the projector's own are projectorCollections). */
export const readCollections = {
  competitions: 'competitions',
  dancers: 'dancers',
  coaches: 'coaches',
  judges: 'judges',
  clubs: 'clubs',
} as const;

export const projectorCollections = {
  /** One aggregate state per competition (projector/evolve/competitionState.ts). */
  competitionStates: 'competition_states',
  /** One record per entry of a competition, `<competitionId>|<entryId>` (projector/write/competitionEntryRecords.ts). */
  competitionEntries: 'competition_entries',
  /** One aggregate state per person (projector/evolve/personState.ts). */
  personStates: 'person_states',
  /** The periods of one link of a person, `<personId>|<kind>|<role>|<subjectId>` (projector/write/personLinkRecords.ts). */
  personLinks: 'person_links',
  /** One aggregate state per club (projector/evolve/clubState.ts). */
  clubStates: 'club_states',
  /** Link facts (projector/evolve/memberLinks.ts), read back by subjectId to derive coaches and clubs. */
  memberLinks: 'member_links',
} as const;

/** Public values are REGISTRY and ARCHIVE; BUFFER is stored for coaches and clubs and never returned. */
export type StoredRegistryState = 'REGISTRY' | 'ARCHIVE' | 'BUFFER';
export type { MembershipStatus, Period, RegistrationState } from '../../schemas/enumValues.ts';
export type { RegistryCountry } from '../../schemas/api/country.ts';

// The public fields of every document are the response schemas' own (schemas/api/): a field is
// declared once there, and the document types below only add what is stored beside it.

/** A response record as stored: its registry state is never null and may be BUFFER. */
type Stored<T> = Omit<T, 'registryState'> & { registryState: StoredRegistryState };

/** Kept on every read document: the projector clock's next due instant (BSON Date, `$lte: new Date()`). */
interface Due {
  nextDueAt: Date | null;
}

/** Keys shared by every searchable document: its `s` (format 3; formats 1 and 2 kept them in `q`). */
export interface SearchKeys {
  /** Distinct folded 3-grams and last pair of every searchable field (multikey index; see searchTokens). */
  tokens: string[];
  /** Folded searchable fields joined by "\n": the exact check after the token pre-filter. */
  text: string;
}

/** Formats 1 and 2 only (the API reads them while it serves such a model): the search keys inside `q`. */
type SearchKeysInQ = Partial<SearchKeys>;

/** What every searchable document holds beside its public fields. */
export interface Searchable {
  s: SearchKeys;
}

// ---------------------------------------------------------------------------------------------
// competitions

export type BannerSide = NonNullable<Competition['banner']['horizontal']> | null;
export type CategoryDocument = Category;

/** The public competition without what a request resolves (registration.state, links, optional parts). */
export interface CompetitionDocument extends Omit<Competition, 'registration' | 'categories' | 'links'>, Due, Searchable {
  _id: string;
  registration: Omit<Competition['registration'], 'state' | 'entriesCount' | 'startsCount'> & {
    entriesCount: number;
    startsCount: number;
  };
  /** Sorted by displayOrder, then in the order they were added (projector/evolve/competitionDocument.ts). */
  categories: CategoryDocument[];
  /** false for drafts, unpublished and deleted competitions: every API query must filter `visible: true`. */
  visible: boolean;
  /**
   * Internal (never in a competition body): when and why a competition that was public left
   * public view, while it stays out of it; null otherwise. `GET /competitions/removals` reads it
   * through the `competitions_removals` index.
   */
  removal: StoredCompetitionRemoval | null;
  q: CompetitionQueryKeys;
}

/** The event that took a competition out of public view, at its occurredAt (canonical). */
export interface StoredCompetitionRemoval {
  at: string;
  reason: 'unpublished' | 'deleted';
}

export interface CompetitionQueryKeys extends SearchKeysInQ {
  /** Folded name: `sort=name` (then _id). */
  name: string;
  /** Folded venue city: `city` prefix match (anchored regex on the folded input). */
  city: string | null;
  /** Folded country name and folded alpha-2 code of the venue: `country` equality. */
  country: string[];
  /** `registration.externalUrl` of the event (for links.registration); not a public field. */
  registrationExternalUrl: string | null;
}

// ---------------------------------------------------------------------------------------------
// dancers, coaches, judges (one document per person role; _id = person id)

/** What every role document holds: the Coach fields but the coach's own `highestClass`. */
export interface PersonRoleDocumentBase extends Omit<Stored<Coach>, 'highestClass'>, Due {
  _id: string;
}

export interface PersonQueryKeys extends SearchKeysInQ {
  sex: 'MALE' | 'FEMALE' | null;
  /**
   * Folded country name and folded alpha-2 code (`country` equality), then countryIdKey of its id
   * (`countryId`): one multikey key for both filters. Format 1 held no id key (`countryId` read
   * `country.id`).
   */
  country: string[];
  /** `sort=name`: folded Latin surname, "\u0001", folded Latin name (native spelling when Latin is null); then _id. */
  nameKey: string;
  /** Role approval instant (canonical UTC) or null. */
  approvedAt: string | null;
  /** 0 when approvedAt is set, 1 when null: `sort=approvedAt` is {q.approvedRank: 1, q.approvedAt: ±1, _id: 1}. */
  approvedRank: 0 | 1;
}

export interface DancerDocument extends Stored<Dancer>, Due, Searchable {
  _id: string;
  q: PersonQueryKeys & {
    hasPartner: boolean;
    /** Clubs of the open dancer links (closed links, also those closed by archival, are not here). */
    clubIds: string[];
    /** Coaches (person ids) of the open coach links. */
    coachIds: string[];
  };
}

export interface CoachDocument extends Stored<Coach>, Due, Searchable {
  _id: string;
  q: PersonQueryKeys & {
    /** Clubs of the open staff links. */
    clubIds: string[];
    /** Instant the coach entered the buffer (internal), or null. */
    bufferSince: string | null;
  };
}

export interface JudgeDocument extends Stored<Judge>, Due, Searchable {
  _id: string;
  q: PersonQueryKeys & { positions: JudgePosition[] };
}

// ---------------------------------------------------------------------------------------------
// clubs (_id = club id)

export type ClubLocationDocument = ClubLocation;

/** The club detail without what a request adds (its coaches, links). */
export interface ClubDocument extends Stored<Omit<ClubDetail, 'coaches' | 'links'>>, Due, Searchable {
  _id: string;
  /** Always null (a listed club has no registryUntil). */
  registryUntil: null;
  q: SearchKeysInQ & {
    /** Folded name: `sort=name` (then _id). */
    nameKey: string;
    approvedAt: string | null;
    approvedRank: 0 | 1;
    /** Folded city of every location (branches included): `city` prefix match. */
    cities: string[];
    /** Format 1 only (the API reads it while it serves a model of format 1): country.id of every location, for `countryId`. */
    countryIds?: number[];
    /** Folded country name and code (`country`) and countryIdKey of the id (`countryId`) of every location. */
    country: string[];
    bufferSince: string | null;
  };
}

/** The document type of each listing's collection (the keys of `readCollections`). */
export interface ReadDocuments {
  competitions: CompetitionDocument;
  dancers: DancerDocument;
  coaches: CoachDocument;
  judges: JudgeDocument;
  clubs: ClubDocument;
}

// Fails to compile if a listing is added to one of the two and not the other.
const SAME_LISTINGS: [keyof ReadDocuments, keyof typeof readCollections] extends [keyof typeof readCollections, keyof ReadDocuments]
  ? true
  : never = true;
void SAME_LISTINGS;
