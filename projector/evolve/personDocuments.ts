import type {
  CoachDocument,
  DancerDocument,
  JudgeDocument,
  PersonQueryKeys,
  PersonRoleDocumentBase,
  RegistryCountry,
  Searchable,
} from '../../services/readModel/documents.ts';
import { approvedSortKeys, countryFilterKeys, personNameKey, searchTokens } from '../../services/readModel/index.ts';
import { advancePerson, nextRoleDueAt } from './advancePerson.ts';
import { linkFacts, type MemberLinkFact } from './memberLinks.ts';
import type { PaidRoleState, PersonState, RoleStateBase } from './personState.ts';
import { deriveRegistryTimeline, type Timeline } from './registryTimeline.ts';
import type { Interval, ProjectionConfig } from './types.ts';

const DAY_MS = 86_400_000;
const toDate = (instant: string | null): Date | null => (instant === null ? null : new Date(instant));
const earliest = (...instants: Array<string | null>): string | null => instants.filter((i): i is string => i !== null).sort()[0] ?? null;

/** Reported timeline of a dancer or judge role (its own transitions already hold rule 1). */
export function paidRoleTimeline(role: RoleStateBase, now: string): Timeline {
  return deriveRegistryTimeline({ own: role.own, exceptions: role.exceptions, members: null, bufferPeriodMs: 0, now });
}

function personFields(
  state: PersonState,
  role: RoleStateBase,
): { base: Omit<PersonRoleDocumentBase, 'registryState' | 'registryUntil' | 'archivedAt' | 'nextDueAt'> & Searchable; q: PersonQueryKeys } {
  const d = state.details;
  const names = { name: d?.name ?? null, surname: d?.surname ?? null, nameEn: d?.nameEn ?? null, surnameEn: d?.surnameEn ?? null };
  const country: RegistryCountry = d?.country ? { id: d.country.id, name: d.country.name, code: d.country.code } : null;
  const { name, surname, nameEn, surnameEn } = names;
  const search = searchTokens([
    name,
    surname,
    nameEn,
    surnameEn,
    [name, surname].filter(Boolean).join(' '),
    [surname, name].filter(Boolean).join(' '),
    [nameEn, surnameEn].filter(Boolean).join(' '),
    [surnameEn, nameEn].filter(Boolean).join(' '),
  ]);
  return {
    base: { _id: state.id, id: state.id, ...names, avatar: d?.avatar ?? null, country, s: search },
    q: {
      sex: d?.sex ?? null,
      country: countryFilterKeys(country),
      nameKey: personNameKey(names),
      ...approvedSortKeys(role.approvedAt),
    },
  };
}

const openSubjects = (state: PersonState, kind: 'club' | 'coach', role: 'dancer' | 'coach'): string[] =>
  [...new Set(state.links.filter((l) => l.kind === kind && l.role === role && l.closedAt === null).map((l) => l.subjectId))].sort();

export interface PersonRoleDocuments {
  dancer: DancerDocument | null;
  judge: JudgeDocument | null;
}

/** The dancer and judge documents of a person at `now` (the coach document needs its listing: coachReadDocument). */
export function roleReadDocuments(state: PersonState, now: Date, config: ProjectionConfig): PersonRoleDocuments {
  const at = now.toISOString();
  const s = advancePerson(state, at, config.zone);
  const { dancer, judge } = s.roles;
  /** What a dancer and a judge document share: the paid role's status and registry state. */
  const paidRole = (role: PaidRoleState, roleName: 'dancer' | 'judge') => {
    const { base, q } = personFields(s, role);
    const t = paidRoleTimeline(role, at);
    return {
      q,
      fields: {
        ...base,
        status: role.status,
        membershipExpiresAt: role.membershipExpiresAt,
        registryState: t.registryState ?? 'ARCHIVE',
        registryUntil: t.registryState === 'REGISTRY' ? role.registryUntil : null,
        archivedAt: t.archivedAt,
        nextDueAt: toDate(earliest(nextRoleDueAt(s, roleName, config.zone), t.nextDueAt)),
      },
    };
  };
  let dancerDoc: DancerDocument | null = null;
  if (dancer) {
    const { fields, q } = paidRole(dancer, 'dancer');
    dancerDoc = {
      ...fields,
      danceClass: dancer.danceClass,
      q: { ...q, hasPartner: dancer.hasPartner, clubIds: openSubjects(s, 'club', 'dancer'), coachIds: openSubjects(s, 'coach', 'dancer') },
    };
  }
  let judgeDoc: JudgeDocument | null = null;
  if (judge) {
    const { fields, q } = paidRole(judge, 'judge');
    judgeDoc = { ...fields, judgeCategory: judge.judgeCategory, q: { ...q, positions: [...judge.positions] } };
  }
  return { dancer: dancerDoc, judge: judgeDoc };
}

/** The dancer role's reported-REGISTRY intervals at `now` (what its link facts are cut to); empty without a dancer role. */
export function dancerListed(state: PersonState, now: Date, config: ProjectionConfig): Interval[] {
  const at = now.toISOString();
  const s = advancePerson(state, at, config.zone);
  return s.roles.dancer ? paidRoleTimeline(s.roles.dancer, at).listed : [];
}

/** Facts of the dancer role's club and coach links at `now` (empty when the person has no dancer link). */
export function dancerLinkFacts(state: PersonState, now: Date, config: ProjectionConfig): MemberLinkFact[] {
  const at = now.toISOString();
  const s = advancePerson(state, at, config.zone);
  const listed: Interval[] = s.roles.dancer ? paidRoleTimeline(s.roles.dancer, at).listed : [];
  return linkFacts(s, 'dancer', listed);
}

/** Derived state of a coach role (rules 4, 5, 6) at `now`. */
export interface CoachListing extends Timeline {
  coachId: string;
}

/**
 * Rule 4/5/6 for a coach role, from the coach's own state and the facts
 * `{ kind: 'coach', subjectId: coachId }` (dancers coached by it, with their listed periods).
 */
export function deriveCoachListing(
  coachState: PersonState,
  dancerFacts: readonly MemberLinkFact[],
  now: Date,
  config: ProjectionConfig,
): CoachListing | null {
  const role = coachState.roles.coach;
  if (!role) return null;
  const members = dancerFacts
    .filter((f) => f.kind === 'coach' && f.subjectId === coachState.id && f.memberRole === 'dancer' && f.memberId !== coachState.id)
    .flatMap((f) => f.listed);
  const timeline = deriveRegistryTimeline({
    own: role.own,
    exceptions: role.exceptions,
    members,
    bufferPeriodMs: config.bufferPeriodDays * DAY_MS,
    now: now.toISOString(),
  });
  return { ...timeline, coachId: coachState.id };
}

/** The coach document at `now`, from the listing deriveCoachListing gave for the same `now`. */
export function coachReadDocument(coachState: PersonState, listing: CoachListing): CoachDocument | null {
  const role = coachState.roles.coach;
  if (!role) return null;
  const { base, q } = personFields(coachState, role);
  return {
    ...base,
    highestClass: role.highestClass,
    registryState: listing.registryState ?? 'BUFFER',
    registryUntil: null,
    archivedAt: listing.archivedAt,
    q: { ...q, clubIds: openSubjects(coachState, 'club', 'coach'), bufferSince: listing.bufferSince },
    nextDueAt: toDate(listing.nextDueAt),
  };
}

/** Facts of the coach role's staff links, `listed` = staff periods ∩ the coach's listed periods. */
export function coachStaffFacts(coachState: PersonState, listing: CoachListing): MemberLinkFact[] {
  return linkFacts(coachState, 'coach', listing.listed);
}
