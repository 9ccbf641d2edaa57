import type { Static } from '@sinclair/typebox';
import type {
  BannerSide as BannerSideSchema,
  CategoryDetails as CategoryDetailsSchema,
  ClubContacts as ClubContactsSchema,
  ClubLocation as ClubLocationSchema,
  CompetitionDetails as CompetitionDetailsSchema,
  Country as CountrySchema,
  JudgePosition as JudgePositionSchema,
  MembershipStatus as MembershipStatusSchema,
  PaidRole as PaidRoleSchema,
  PersonDetails as PersonDetailsSchema,
  RegistryState as RegistryStateSchema,
  Role as RoleSchema,
  Sex as SexSchema,
} from '../../schemas/events/index.ts';

// Every type here is derived from the schemas that validate the events, never written twice.

export type { Aggregate, DomainEvent, EventData, EventOfType, EventType } from '../../schemas/events/index.ts';
export { EVENT_TYPES, aggregateOf, isEventType } from '../../schemas/events/index.ts';

export type Country = Static<typeof CountrySchema>;
export type Role = Static<typeof RoleSchema>;
export type PaidRole = Static<typeof PaidRoleSchema>;
export type Sex = Static<typeof SexSchema>;
export type RegistryState = Static<typeof RegistryStateSchema>;
export type MembershipStatus = Static<typeof MembershipStatusSchema>;
export type JudgePosition = Static<typeof JudgePositionSchema>;
export type BannerSide = Static<typeof BannerSideSchema>;
export type CompetitionDetails = Static<typeof CompetitionDetailsSchema>;
export type CategoryDetails = Static<typeof CategoryDetailsSchema>;
export type ClubLocation = Static<typeof ClubLocationSchema>;
export type ClubContacts = Static<typeof ClubContactsSchema>;
export type PersonDetails = Static<typeof PersonDetailsSchema>;
