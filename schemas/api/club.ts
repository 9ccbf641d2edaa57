import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { DateTimeString, Nullable, NullableString, StringEnum, UuidString } from './primitives.ts';
import { CLUB_LOCATION_TYPES } from '../enumValues.ts';
import { RegistryCountry } from './country.ts';
import { Coach, registryStateFields } from './registryPeople.ts';

export const ClubLocation = Type.Object(
  {
    type: StringEnum(CLUB_LOCATION_TYPES, { description: 'Exactly one `main` per club.' }),
    address: NullableString({ description: 'Geocoded address with optional bracketed supplementary detail.' }),
    city: NullableString({ description: 'As reported by the geocoder, in the language entered, never translated.' }),
    country: RegistryCountry,
    placeId: NullableString({ description: 'Map-provider place id; coordinates are not stored.' }),
  },
  { title: 'ClubLocation' },
);

const clubListItemFields = {
  id: UuidString(),
  name: NullableString({ description: 'Latin characters.' }),
  logo: NullableString(),
  address: NullableString({ description: 'The main location; same string as the `main` entry of `locations`.' }),
  country: RegistryCountry,
  locations: Type.Array(ClubLocation, {
    description: 'Main location first, then branches oldest to newest. Empty when no address is on file.',
  }),
  dancersCount: Type.Integer({ minimum: 0, description: 'Current roster only.' }),
  coachesCount: Type.Integer({ minimum: 0, description: 'Current staff only.' }),
  ...registryStateFields,
};

export const ClubListItem = Type.Object(clubListItemFields, { title: 'ClubListItem' });

export const ClubDetail = Type.Object(
  {
    ...clubListItemFields,
    foundedOn: NullableString({ description: 'Reported verbatim: a bare year or a full date.' }),
    approvedAt: Nullable(DateTimeString()),
    contacts: Type.Object({
      phone: NullableString(),
      email: NullableString(),
      website: NullableString(),
      instagram: NullableString(),
      facebook: NullableString(),
    }),
    coaches: Type.Array(Coach, { description: 'Current staff, sorted by surname; empty if none.' }),
    links: Type.Object({
      self: Type.String(),
      dancers: Type.String({ description: 'Paginated dancer listing filtered by this club.' }),
      coaches: Type.String({ description: 'Paginated coach listing filtered by this club.' }),
      web: Type.String(),
    }),
  },
  { title: 'ClubDetail' },
);

export type ClubLocation = Static<typeof ClubLocation>;
export type ClubListItem = Static<typeof ClubListItem>;
export type ClubDetail = Static<typeof ClubDetail>;
