import type { ClubDocument, ClubLocationDocument, RegistryCountry } from '../../services/readModel/documents.ts';
import { approvedSortKeys, countryFilterKeys, foldSearchText, nameKey, searchTokens } from '../../services/readModel/index.ts';
import type { ClubLocationState, ClubState } from './clubState.ts';
import { covers } from './intervals.ts';
import type { MemberLinkFact } from './memberLinks.ts';
import { deriveRegistryTimeline, type Timeline } from './registryTimeline.ts';
import type { ProjectionConfig } from './types.ts';

const DAY_MS = 86_400_000;

export interface ClubMembership extends Timeline {
  clubId: string;
  dancersCount: number;
  coachesCount: number;
}

/**
 * Rules 4/5/6 for a club, from its own state and the facts `{ kind: 'club', subjectId: clubId }`
 * (dancer members and coach staff, with the periods in which each was listed).
 */
export function deriveClubMembership(
  club: ClubState,
  memberFacts: readonly MemberLinkFact[],
  now: Date,
  config: ProjectionConfig,
): ClubMembership {
  const at = now.toISOString();
  const facts = memberFacts.filter((f) => f.kind === 'club' && f.subjectId === club.id);
  const timeline = deriveRegistryTimeline({
    own: club.own,
    exceptions: club.exceptions,
    members: facts.flatMap((f) => f.listed),
    bufferPeriodMs: config.bufferPeriodDays * DAY_MS,
    now: at,
  });
  const countOf = (role: 'dancer' | 'coach'): number =>
    new Set(facts.filter((f) => f.memberRole === role && covers(f.listed, at)).map((f) => f.memberId)).size;
  return { ...timeline, clubId: club.id, dancersCount: countOf('dancer'), coachesCount: countOf('coach') };
}

const toCountry = (country: ClubLocationState['country']): RegistryCountry =>
  country ? { id: country.id, name: country.name, code: country.code } : null;

/** Main first, then branches in the order they were added. */
export function orderedLocations(club: ClubState): ClubLocationState[] {
  return [...club.locations.filter((l) => l.type === 'main'), ...club.locations.filter((l) => l.type !== 'main')];
}

/** The club document, from the membership deriveClubMembership gave; null before club.registered. */
export function clubReadDocument(club: ClubState, membership: ClubMembership): ClubDocument | null {
  if (!club.registered) return null;
  const locations = orderedLocations(club);
  const main = locations.find((l) => l.type === 'main');
  const publicLocations: ClubLocationDocument[] = locations.map((l) => ({
    type: l.type,
    address: l.address,
    city: l.city,
    country: toCountry(l.country),
    placeId: l.placeId,
  }));
  const unique = <T>(values: T[]): T[] => [...new Set(values)];
  return {
    _id: club.id,
    id: club.id,
    name: club.name,
    logo: club.logo,
    address: main?.address ?? null,
    country: main ? toCountry(main.country) : null,
    locations: publicLocations,
    dancersCount: membership.dancersCount,
    coachesCount: membership.coachesCount,
    registryState: membership.registryState ?? 'BUFFER',
    registryUntil: null,
    archivedAt: membership.archivedAt,
    foundedOn: club.foundedOn,
    approvedAt: club.approvedAt,
    contacts: { ...club.contacts },
    s: searchTokens([club.name]),
    q: {
      nameKey: nameKey(club.name),
      ...approvedSortKeys(club.approvedAt),
      cities: unique(locations.flatMap((l) => (l.city ? [foldSearchText(l.city)] : [])).filter((c) => c !== '')),
      country: unique(publicLocations.flatMap((l) => countryFilterKeys(l.country))),
      bufferSince: membership.bufferSince,
    },
    nextDueAt: membership.nextDueAt === null ? null : new Date(membership.nextDueAt),
  };
}
