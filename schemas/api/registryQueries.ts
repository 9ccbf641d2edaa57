import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { StringEnum } from './primitives.ts';
import { JUDGE_POSITIONS, MEMBERSHIP_STATUSES, REGISTRY_SORTS } from '../enumValues.ts';
import {
  BooleanParameter,
  CommaList,
  IntegerParameter,
  TextParameter,
  UuidParameter,
  country,
  countryId,
  limit,
  order,
  page,
  registryState,
  search,
  sex,
} from './queryParameters.ts';
import type { WithDefaults } from './withDefaults.ts';

const PEOPLE_SEARCH = 'name and surname in both spellings (native and Latin)';

function sharedRegistryParameters(searchOver: string) {
  return {
    registryState,
    sort: Type.Optional(
      StringEnum(REGISTRY_SORTS, {
        default: 'name',
        description:
          'Sort key; default `name`. `name`: Latin surname, then Latin name (native spelling when Latin is null), then id (clubs: club name, then id). `approvedAt`: role approval time, nulls last. Ties end with `id` ascending.',
      }),
    ),
    order,
    page,
    limit,
    search: search(searchOver),
  };
}

const membershipStatus = (role: string) =>
  CommaList(
    StringEnum(MEMBERSHIP_STATUSES),
    `Membership status of the ${role} role only, independent of \`registryState\` and of the person's other roles.`,
  );

/** Query parameters of `GET /dancers`. */
export const DancersQuery = Type.Object(
  {
    ...sharedRegistryParameters(PEOPLE_SEARCH),
    sex,
    countryId: countryId("the dancer's country"),
    country: country("the dancer's country"),
    clubId: UuidParameter('Current club membership only; links closed by an archival do not match.'),
    coachId: UuidParameter('Current coach link only; links closed by an archival do not match.'),
    danceClass: IntegerParameter('Dance class.'),
    hasPartner: BooleanParameter('Whether the dancer currently has a partner.'),
    status: membershipStatus('dancer'),
  },
  { additionalProperties: false },
);

/** Query parameters of `GET /coaches` (`status` is rejected: coaches have no status). */
export const CoachesQuery = Type.Object(
  {
    ...sharedRegistryParameters(PEOPLE_SEARCH),
    sex,
    countryId: countryId("the coach's country"),
    country: country("the coach's country"),
    clubId: UuidParameter('Current club membership only; links closed by an archival do not match.'),
    highestClass: IntegerParameter('Highest class the coach trains.'),
  },
  { additionalProperties: false },
);

/** Query parameters of `GET /judges`. */
export const JudgesQuery = Type.Object(
  {
    ...sharedRegistryParameters(PEOPLE_SEARCH),
    sex,
    countryId: countryId("the judge's country"),
    country: country("the judge's country"),
    judgeCategory: IntegerParameter('Judge category.'),
    position: Type.Optional(StringEnum(JUDGE_POSITIONS, { description: 'Judging position.' })),
    status: membershipStatus('judge'),
  },
  { additionalProperties: false },
);

const ANY_LOCATION = 'any location of the club, branches included (a club with a branch in Riga is found under `city=Riga`)';

/** Query parameters of `GET /clubs` (`status` is rejected: clubs have no status). */
export const ClubsQuery = Type.Object(
  {
    ...sharedRegistryParameters('the club name'),
    countryId: countryId(ANY_LOCATION),
    country: country(ANY_LOCATION),
    city: TextParameter(`Case-insensitive prefix match on the city of ${ANY_LOCATION}.`),
  },
  { additionalProperties: false },
);

type RegistryDefaults = 'registryState' | 'sort' | 'order' | 'page' | 'limit';
export type DancersQuery = WithDefaults<Static<typeof DancersQuery>, RegistryDefaults>;
export type CoachesQuery = WithDefaults<Static<typeof CoachesQuery>, RegistryDefaults>;
export type JudgesQuery = WithDefaults<Static<typeof JudgesQuery>, RegistryDefaults>;
export type ClubsQuery = WithDefaults<Static<typeof ClubsQuery>, RegistryDefaults>;
