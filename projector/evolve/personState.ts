import type { Country, JudgePosition, MembershipStatus, Sex } from '../../services/events/index.ts';
import { initialMeta } from './versioning.ts';
import type { AggregateMeta, OwnTransition, RegistryException } from './types.ts';

// What the projector stores per person (collection person_states). The person aggregate owns
// its links, so the link history lives here and the facts coaches and clubs are derived from
// come out of it (memberLinks.ts).

export interface PersonDetailsState {
  name: string | null;
  surname: string | null;
  nameEn: string | null;
  surnameEn: string | null;
  sex: Sex | null;
  avatar: string | null;
  country: Country;
}

export interface RoleStateBase {
  /** occurredAt of the (first) role_granted. */
  grantedAt: string;
  approvedAt: string | null;
  registryUntil: string | null;
  /** Own transitions, oldest first; the first is the grant. Rule-1 archivals land here when due. */
  own: OwnTransition[];
  exceptions: RegistryException[];
}

export interface PaidRoleState extends RoleStateBase {
  status: MembershipStatus | null;
  membershipExpiresAt: string | null;
  /** Instant the status becomes INACTIVE (rule 3), or null when nothing is pending. */
  inactiveDueAt: string | null;
}

export interface DancerRoleState extends PaidRoleState {
  danceClass: number | null;
  hasPartner: boolean;
}

export interface JudgeRoleState extends PaidRoleState {
  judgeCategory: number | null;
  positions: JudgePosition[];
}

export interface CoachRoleState extends RoleStateBase {
  highestClass: number | null;
}

/** One period of a link; a re-join opens a new one. */
export interface PersonLink {
  /** club: membership (dancer) or staff (coach); coach: this person's dancer role coached by subjectId. */
  kind: 'club' | 'coach';
  role: 'dancer' | 'coach';
  /** clubId or coach person id. */
  subjectId: string;
  since: string;
  openedAt: string;
  closedAt: string | null;
  closedBy: 'left' | 'archival' | null;
}

export interface PersonState extends AggregateMeta {
  details: PersonDetailsState | null;
  roles: {
    dancer: DancerRoleState | null;
    coach: CoachRoleState | null;
    judge: JudgeRoleState | null;
  };
  /**
   * Every link the person opened, for the pure fold (the tests, the reference model). The writer
   * keeps each link's periods as a record of its own (person_links) and puts here only those a
   * batch may touch or whose facts it recomputes; it never stores them in person_states.
   */
  links: PersonLink[];
  /** The writer's account of the person's link records (projector/write/personLinkRecords.ts); absent in the pure fold. */
  linkBook?: {
    open: string[];
    factsAt: string | null;
    factsFrom: string | null;
    factsSince: number;
    lastEnd: string | null;
  };
}

export function initialPersonState(id: string): PersonState {
  return { ...initialMeta(id), details: null, roles: { dancer: null, coach: null, judge: null }, links: [] };
}

export const lastOwnState = (role: RoleStateBase): OwnTransition | undefined => role.own[role.own.length - 1];
