// Shapes of the documents the API reads. One collection per listing; every document holds the
// public fields exactly as the API returns them, plus `q` (query keys: filters, sort keys,
// search tokens; never returned) and `nextDueAt` (for the projector clock; never returned).
//
// Instants are canonical UTC strings from Date.prototype.toISOString()
// ("2025-03-01T10:00:00.000Z"), so that string order is time order and `$gte` works on them.
// Calendar days are "YYYY-MM-DD". `nextDueAt` is a BSON Date so the clock can `$lte: new Date()`.
import type { MembershipStatus } from '../../schemas/enumValues.ts';

/** Collection names of the read model (API reads the first five; the rest are projector-only). */
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
  /** One aggregate state per person (projector/evolve/personState.ts). */
  personStates: 'person_states',
  /** One aggregate state per club (projector/evolve/clubState.ts). */
  clubStates: 'club_states',
  /** Link facts (projector/evolve/memberLinks.ts), read back by subjectId to derive coaches and clubs. */
  memberLinks: 'member_links',
} as const;

export type RegistryCountry = { id: number; name: string; code: string } | null;
/** Public values are REGISTRY and ARCHIVE; BUFFER is stored for coaches and clubs and never returned. */
export type StoredRegistryState = 'REGISTRY' | 'ARCHIVE' | 'BUFFER';
export type { MembershipStatus, Period, RegistrationState } from '../../schemas/enumValues.ts';

/** Keys shared by every searchable document. */
export interface SearchKeys {
  /** Distinct folded 2- and 3-grams of every searchable field (multikey index). */
  tokens: string[];
  /** Folded searchable fields joined by "\n": the exact check after the token pre-filter. */
  text: string;
}

// ---------------------------------------------------------------------------------------------
// competitions

export type BannerSide = Record<string, string> | null;

export interface CategoryDocument {
  id: string;
  name: string;
  entryType: 'couple' | 'solo' | 'duo-synchro' | 'mix' | 'show';
  style: 'none' | 'latin' | 'standard' | 'combined' | null;
  ageGroup: string | null;
  birthYearRange: string | null;
  participantDivision: string | null;
  level: number | null;
  dances: string[];
  displayOrder: number;
  startsCount: number;
}

export interface CompetitionDocument {
  _id: string;
  id: string;
  slug: string;
  name: string;
  shortName: string;
  description: string | null;
  descriptionFormatted: string | null;
  status: 'open' | 'completed';
  type: { code: string; label: string } | null;
  organizer: {
    name: string;
    shortName: string | null;
    country: string | null;
    countryCode: string | null;
    website: string | null;
  } | null;
  resultsUrl: string | null;
  dates: { start: string; end: string };
  location: {
    country: string | null;
    countryId: number | null;
    countryCode: string | null;
    city: string | null;
    formattedAddress: string | null;
    placeId: string | null;
    venueName: string | null;
    venueAddress: string | null;
    /** "<city>, <country>" from the parts that are not null, or null. */
    label: string | null;
  };
  registration: {
    status: 'open' | 'closed';
    opensAt: string | null;
    deadline: string | null;
    maxEntries: number | null;
    entriesCount: number;
    startsCount: number;
  };
  banner: { horizontal: BannerSide; vertical: BannerSide };
  media: { entryForm: string | null };
  /** Sorted by displayOrder, then name, then id. */
  categories: CategoryDocument[];
  createdAt: string;
  updatedAt: string;
  /** false for drafts, unpublished and deleted competitions: every API query must filter `visible: true`. */
  visible: boolean;
  /**
   * Internal (never in a competition body): when and why a competition that was public left
   * public view, while it stays out of it; null otherwise. `GET /competitions/removals` reads it
   * through the `competitions_removals` index.
   */
  removal: StoredCompetitionRemoval | null;
  q: CompetitionQueryKeys;
  /** Next clock-driven registration.state change (start of a day in the calendar zone), or null. */
  nextDueAt: Date | null;
}

/** The event that took a competition out of public view, at its occurredAt (canonical). */
export interface StoredCompetitionRemoval {
  at: string;
  reason: 'unpublished' | 'deleted';
}

export interface CompetitionQueryKeys extends SearchKeys {
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

export interface PersonRoleDocumentBase {
  _id: string;
  id: string;
  name: string | null;
  surname: string | null;
  nameEn: string | null;
  surnameEn: string | null;
  avatar: string | null;
  country: RegistryCountry;
  registryState: StoredRegistryState;
  /** Only for REGISTRY dancers and judges; null otherwise. */
  registryUntil: string | null;
  /** Null unless the reported state is ARCHIVE. */
  archivedAt: string | null;
  nextDueAt: Date | null;
}

export interface PersonQueryKeys extends SearchKeys {
  sex: 'MALE' | 'FEMALE' | null;
  /** Folded country name and folded alpha-2 code: `country` equality (`countryId` uses country.id). */
  country: string[];
  /** `sort=name`: folded Latin surname, "\u0001", folded Latin name (native spelling when Latin is null); then _id. */
  nameKey: string;
  /** Role approval instant (canonical UTC) or null. */
  approvedAt: string | null;
  /** 0 when approvedAt is set, 1 when null: `sort=approvedAt` is {q.approvedRank: 1, q.approvedAt: ±1, _id: 1}. */
  approvedRank: 0 | 1;
}

export interface DancerDocument extends PersonRoleDocumentBase {
  danceClass: number | null;
  status: MembershipStatus | null;
  membershipExpiresAt: string | null;
  q: PersonQueryKeys & {
    hasPartner: boolean;
    /** Clubs of the open dancer links (closed links, also those closed by archival, are not here). */
    clubIds: string[];
    /** Coaches (person ids) of the open coach links. */
    coachIds: string[];
  };
}

export interface CoachDocument extends PersonRoleDocumentBase {
  highestClass: number | null;
  q: PersonQueryKeys & {
    /** Clubs of the open staff links. */
    clubIds: string[];
    /** Instant the coach entered the buffer (internal), or null. */
    bufferSince: string | null;
  };
}

export interface JudgeDocument extends PersonRoleDocumentBase {
  judgeCategory: number | null;
  status: MembershipStatus | null;
  membershipExpiresAt: string | null;
  q: PersonQueryKeys & { positions: Array<'judge' | 'headJudge' | 'sportsInspector'> };
}

// ---------------------------------------------------------------------------------------------
// clubs (_id = club id)

export interface ClubLocationDocument {
  type: 'main' | 'branch';
  address: string | null;
  city: string | null;
  country: RegistryCountry;
  placeId: string | null;
}

export interface ClubDocument {
  _id: string;
  id: string;
  name: string | null;
  logo: string | null;
  /** Address of the main location, or null. */
  address: string | null;
  /** Country of the main location, or null. */
  country: RegistryCountry;
  /** Main first, then branches in the order they were added. */
  locations: ClubLocationDocument[];
  /** Open dancer links whose dancer role is REGISTRY now. */
  dancersCount: number;
  /** Open staff links whose coach role is REGISTRY (listed) now. */
  coachesCount: number;
  registryState: StoredRegistryState;
  /** Always null (a listed club has no registryUntil). */
  registryUntil: null;
  archivedAt: string | null;
  foundedOn: string | null;
  approvedAt: string | null;
  contacts: {
    phone: string | null;
    email: string | null;
    website: string | null;
    instagram: string | null;
    facebook: string | null;
  };
  q: SearchKeys & {
    /** Folded name: `sort=name` (then _id). */
    nameKey: string;
    approvedAt: string | null;
    approvedRank: 0 | 1;
    /** Folded city of every location (branches included): `city` prefix match. */
    cities: string[];
    /** country.id of every location: `countryId`. */
    countryIds: number[];
    /** Folded country name and code of every location: `country` equality. */
    country: string[];
    bufferSince: string | null;
  };
  nextDueAt: Date | null;
}

/** Fields never returned by the API (project them away). */
export const internalFields = ['_id', 'q', 'visible', 'nextDueAt'] as const;
