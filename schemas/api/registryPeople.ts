import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { DateString, DateTimeString, Nullable, NullableInteger, NullableString, StringEnum, UuidString } from './primitives.ts';
import { MEMBERSHIP_STATUSES, REGISTRY_STATES } from '../enumValues.ts';
import { RegistryCountry } from './country.ts';

export const MembershipStatusField = Nullable(StringEnum(MEMBERSHIP_STATUSES), {
  description:
    'Whether the dues of this role are paid; held per role, not per person. Read `registryState` to know who counts as a member.',
});

export const RegistryStateField = Nullable(StringEnum(REGISTRY_STATES), {
  description: 'Where the record sits: `REGISTRY` (listed) or `ARCHIVE`.',
});

/** `registryState`, `registryUntil`, `archivedAt`: shared by every registry record. */
export const registryStateFields = {
  registryState: RegistryStateField,
  registryUntil: Nullable(DateString(), {
    description:
      'For a REGISTRY dancer or judge: the day the archive claims the role if dues are not renewed. Null in the archive and for a listed coach or club.',
  }),
  archivedAt: Nullable(DateTimeString(), { description: 'Null for anything not currently in ARCHIVE.' }),
};

const personFields = {
  id: UuidString(),
  name: NullableString({ description: 'Native spelling.' }),
  surname: NullableString({ description: 'Native spelling.' }),
  nameEn: NullableString({ description: 'Latin spelling.' }),
  surnameEn: NullableString({ description: 'Latin spelling.' }),
  avatar: NullableString(),
};

const membershipExpiresAt = Nullable(DateTimeString(), {
  description: 'End of the paid term, always a full RFC 3339 date-time in UTC.',
});

export const Dancer = Type.Object(
  {
    ...personFields,
    danceClass: NullableInteger(),
    country: RegistryCountry,
    status: MembershipStatusField,
    membershipExpiresAt,
    ...registryStateFields,
  },
  { title: 'Dancer' },
);

export const Coach = Type.Object(
  {
    ...personFields,
    highestClass: NullableInteger(),
    country: RegistryCountry,
    ...registryStateFields,
  },
  { title: 'Coach' },
);

export const Judge = Type.Object(
  {
    ...personFields,
    judgeCategory: NullableInteger(),
    country: RegistryCountry,
    status: MembershipStatusField,
    membershipExpiresAt,
    ...registryStateFields,
  },
  { title: 'Judge' },
);

export type Dancer = Static<typeof Dancer>;
export type Coach = Static<typeof Coach>;
export type Judge = Static<typeof Judge>;
