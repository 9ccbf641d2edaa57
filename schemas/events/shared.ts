import { Type } from '@sinclair/typebox';
import type { TObject, TProperties } from '@sinclair/typebox';
import {
  CLUB_LOCATION_TYPES,
  ENTRY_TYPES,
  JUDGE_POSITIONS,
  MEMBERSHIP_STATUSES,
  REGISTRATION_STATUSES,
  REGISTRY_STATES,
  SEXES,
  STYLES,
} from '../enumValues.ts';
import {
  BANNER_KEY_PATTERN,
  COUNTRY_CODE_PATTERN,
  CalendarDate,
  Nullable,
  NullableInteger,
  NullableString,
  StringEnum,
  Uuid,
} from './primitives.ts';

// The shapes events.md names under "Shared shapes", with the field types of api-v1.md.

export const Closed = <P extends TProperties>(properties: P): TObject<P> => Type.Object(properties, { additionalProperties: false });

/**
 * "Subset of X" in the contract: any of X's keys, no others. An empty subset is accepted: it
 * changes nothing, but it still carries an aggregateVersion, and dead-lettering it would leave
 * a gap in the aggregate's version sequence.
 */
export const Subset = <P extends TProperties>(object: TObject<P>) => Type.Partial(object, { additionalProperties: false });

/** An event whose data carries nothing: `{}`. */
export const NoData = () => Closed({});

export const Country = Nullable(Closed({ id: Type.Integer(), name: Type.String(), code: Type.String({ pattern: COUNTRY_CODE_PATTERN }) }));

export const ROLES = ['dancer', 'coach', 'judge'] as const;
export const PAID_ROLES = ['dancer', 'judge'] as const;
export const CLUB_ROLES = ['dancer', 'coach'] as const;
export const Role = StringEnum(ROLES);
export const PaidRole = StringEnum(PAID_ROLES);
export const ClubRole = StringEnum(CLUB_ROLES);

export const Sex = StringEnum(SEXES);
export const RegistryState = StringEnum(REGISTRY_STATES);
export const PaidStatus = StringEnum(['ACTIVE', 'LIMITED']);
export const MembershipStatus = StringEnum(MEMBERSHIP_STATUSES);
export const JudgePosition = StringEnum(JUDGE_POSITIONS);

// Keys are pixel widths (a responsive srcset) or the single key `default` (a banner uploaded
// before responsive sizing), never both.
export const BannerSide = Type.Unsafe<Record<string, string> | null>({
  type: ['object', 'null'],
  propertyNames: { pattern: BANNER_KEY_PATTERN },
  additionalProperties: { type: 'string', minLength: 1 },
  dependencies: { default: { maxProperties: 1 } },
});

export const CompetitionDetails = Closed({
  slug: Type.String({ minLength: 1 }),
  name: Type.String(),
  shortName: Type.String(),
  descriptionFormatted: NullableString(),
  type: Nullable(Closed({ code: Type.String(), label: Type.String() })),
  organizer: Nullable(
    Closed({
      name: Type.String(),
      shortName: NullableString(),
      country: NullableString(),
      countryCode: NullableString(),
      website: NullableString(),
    }),
  ),
  dates: Closed({ start: CalendarDate(), end: CalendarDate() }),
  location: Closed({
    country: NullableString(),
    countryId: NullableInteger(),
    countryCode: NullableString(),
    city: NullableString(),
    formattedAddress: NullableString(),
    placeId: NullableString(),
    venueName: NullableString(),
    venueAddress: NullableString(),
  }),
  registration: Closed({
    status: StringEnum(REGISTRATION_STATUSES),
    opensAt: Nullable(CalendarDate()),
    deadline: Nullable(CalendarDate()),
    maxEntries: NullableInteger(),
    externalUrl: NullableString(),
  }),
  banner: Closed({ horizontal: BannerSide, vertical: BannerSide }),
  media: Closed({ entryForm: NullableString() }),
  resultsUrl: NullableString(),
});

export const CategoryDetails = Closed({
  id: Uuid(),
  name: Type.String(),
  entryType: StringEnum(ENTRY_TYPES),
  style: Nullable(StringEnum(STYLES)),
  ageGroup: NullableString(),
  birthYearRange: NullableString(),
  participantDivision: NullableString(),
  level: Nullable(Type.Integer({ minimum: 1, maximum: 10 })),
  dances: Type.Array(Type.String()),
  displayOrder: Type.Integer(),
});

export const ClubLocation = Closed({
  id: Uuid(),
  type: StringEnum(CLUB_LOCATION_TYPES),
  address: NullableString(),
  city: NullableString(),
  country: Country,
  placeId: NullableString(),
});

export const ClubContacts = Closed({
  phone: NullableString(),
  email: NullableString(),
  website: NullableString(),
  instagram: NullableString(),
  facebook: NullableString(),
});
