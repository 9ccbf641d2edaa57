import type { ClubContacts, Country } from '../../services/events/index.ts';
import { initialMeta } from './versioning.ts';
import type { AggregateMeta, OwnTransition, RegistryException } from './types.ts';

// What the projector stores per club (collection club_states). Membership (buffer, counts) is
// not stored here: it is derived from the link facts the persons own (deriveClubMembership).

export interface ClubLocationState {
  id: string;
  type: 'main' | 'branch';
  address: string | null;
  city: string | null;
  country: Country;
  placeId: string | null;
}

export interface ClubState extends AggregateMeta {
  registered: boolean;
  name: string | null;
  logo: string | null;
  foundedOn: string | null;
  approvedAt: string | null;
  contacts: ClubContacts;
  /** In the order they were added; at most one has type main. */
  locations: ClubLocationState[];
  /** Registration and reinstatements (REGISTRY), explicit archivals (ARCHIVE), oldest first. */
  own: OwnTransition[];
  exceptions: RegistryException[];
}

export function initialClubState(id: string): ClubState {
  return {
    ...initialMeta(id),
    registered: false,
    name: null,
    logo: null,
    foundedOn: null,
    approvedAt: null,
    contacts: { phone: null, email: null, website: null, instagram: null, facebook: null },
    locations: [],
    own: [],
    exceptions: [],
  };
}
