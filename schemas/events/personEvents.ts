import { Type } from '@sinclair/typebox';
import type { Static, TObject, TProperties, TUnion } from '@sinclair/typebox';
import { CalendarDate, DateTime, Nullable, NullableInteger, NullableString, Uuid } from './primitives.ts';
import {
  ClubRole,
  Closed,
  Country,
  JudgePosition,
  MembershipStatus,
  PaidRole,
  PaidStatus,
  RegistryState,
  Role,
  Sex,
  Subset,
} from './shared.ts';

export const PersonDetails = Closed({
  name: NullableString(),
  surname: NullableString(),
  nameEn: NullableString(),
  surnameEn: NullableString(),
  sex: Sex,
  avatar: NullableString(),
  country: Country,
});

/** What a grant says about each role, beyond the role's name. */
const grantFields = {
  approvedAt: DateTime(),
  registryUntil: Nullable(CalendarDate()),
};
export const DancerRoleDetails = Closed({ ...grantFields, danceClass: NullableInteger(), hasPartner: Type.Boolean() });
export const CoachRoleDetails = Closed({ ...grantFields, highestClass: NullableInteger() });
export const JudgeRoleDetails = Closed({
  ...grantFields,
  judgeCategory: NullableInteger(),
  positions: Type.Array(JudgePosition, { uniqueItems: true }),
});

/**
 * One object per role, told apart by `role`. ajv's `discriminator` keyword (OpenAPI's, enabled
 * with the ajv option `discriminator: true`) picks the branch by `role`, so errors come from that
 * branch only ("unexpected field judgeCategory") instead of from every branch of a plain oneOf.
 */
const ByRole = <B extends TObject[]>(branches: [...B]) =>
  Type.Unsafe<Static<TUnion<B>>>({
    type: 'object',
    description: 'One branch per role, chosen by `role` (OpenAPI discriminator; ajv option `discriminator: true`).',
    discriminator: { propertyName: 'role' },
    oneOf: branches,
  });
const withRole = <R extends string, P extends TProperties>(role: R, object: TObject<P>) =>
  Closed({ role: Type.Literal(role), ...object.properties });

export const RoleGranted = ByRole([
  withRole('dancer', DancerRoleDetails),
  withRole('coach', CoachRoleDetails),
  withRole('judge', JudgeRoleDetails),
]);

// "Subset of the role's fields above": every field of the grant but the role itself.
export const RoleDetailsChanged = ByRole([
  Closed({ role: Type.Literal('dancer'), changes: Subset(DancerRoleDetails) }),
  Closed({ role: Type.Literal('coach'), changes: Subset(CoachRoleDetails) }),
  Closed({ role: Type.Literal('judge'), changes: Subset(JudgeRoleDetails) }),
]);

/** `data` of every event of the person aggregate (aggregateId = person id). */
export const personEventData = {
  'person.registered': PersonDetails,
  'person.details_changed': Subset(PersonDetails),
  'person.role_granted': RoleGranted,
  'person.role_details_changed': RoleDetailsChanged,
  'person.membership_paid': Closed({
    role: PaidRole,
    status: PaidStatus,
    membershipExpiresAt: DateTime(),
    registryUntil: CalendarDate(),
  }),
  'person.membership_status_changed': Closed({ role: PaidRole, status: MembershipStatus }),
  'person.role_archived': Closed({ role: Role }),
  'person.role_reinstated': Closed({ role: Role, registryUntil: Nullable(CalendarDate()) }),
  'person.exception_placed': Closed({ role: Role, registryState: RegistryState, until: DateTime() }),
  'person.exception_lifted': Closed({ role: Role }),
  'person.club_joined': Closed({ role: ClubRole, clubId: Uuid(), since: CalendarDate() }),
  'person.club_left': Closed({ role: ClubRole, clubId: Uuid() }),
  'person.coach_assigned': Closed({ coachId: Uuid(), since: CalendarDate() }),
  'person.coach_unassigned': Closed({ coachId: Uuid() }),
};
