import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { DateString, DateTimeString, Nullable, NullableInteger, NullableString, StringEnum, UuidString } from './primitives.ts';
import { COMPETITION_STATUSES, REGISTRATION_STATES, REGISTRATION_STATUSES } from '../enumValues.ts';
import { Category } from './category.ts';

export const BannerSide = Nullable(
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    propertyNames: { pattern: '^(?:[0-9]+|default)$' },
    additionalProperties: { type: 'string' },
  }),
  {
    title: 'BannerSide',
    description:
      'Null when nothing is uploaded for the orientation; otherwise a map from a key to an image URL. The keys are pixel widths (responsive srcset) or the single key `default` (banner uploaded before responsive sizing).',
  },
);

export const CompetitionLocation = Type.Object({
  country: NullableString(),
  countryId: NullableInteger(),
  countryCode: NullableString(),
  city: NullableString(),
  formattedAddress: NullableString(),
  placeId: NullableString(),
  venueName: NullableString(),
  venueAddress: NullableString(),
  label: NullableString({ description: '`"<city>, <country>"` from the parts that are not null, or null.' }),
});

export const CompetitionRegistration = Type.Object({
  status: StringEnum(REGISTRATION_STATUSES, { description: 'Set by the organiser.' }),
  state: StringEnum(REGISTRATION_STATES, {
    description: 'Whether entries are accepted right now (replaces the former boolean `isOpen`).',
  }),
  opensAt: Nullable(DateString(), {
    description: 'First day entries are accepted (that day is already open). Null: open since announcement.',
  }),
  deadline: Nullable(DateString(), { description: 'Last day entries are accepted (that day is still open).' }),
  maxEntries: NullableInteger(),
  entriesCount: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Number of entries (one entry may select several categories). With `include=entriesCount` and on the detail.',
    }),
  ),
  startsCount: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: "Sum of the categories' `startsCount`, at least `entriesCount`. Present when categories are included.",
    }),
  ),
});

/** A published competition. */
export const Competition = Type.Object(
  {
    id: UuidString(),
    slug: Type.String({ description: 'Frozen when the competition becomes public; accepted instead of the id.' }),
    name: Type.String(),
    shortName: Type.String(),
    description: NullableString({ description: 'Plain text derived from `descriptionFormatted`; what `search` matches.' }),
    descriptionFormatted: NullableString({ description: 'Markdown as authored.' }),
    status: StringEnum(COMPETITION_STATUSES),
    type: Nullable(
      Type.Object({
        code: Type.String({ description: 'Stable, safe to switch on.' }),
        label: Type.String({ description: 'Display text; may change.' }),
      }),
    ),
    organizer: Nullable(
      Type.Object({
        name: Type.String(),
        shortName: NullableString(),
        country: NullableString({ description: "The organiser's own country, not the venue's." }),
        countryCode: NullableString(),
        website: NullableString(),
      }),
    ),
    resultsUrl: NullableString({ description: 'Null until the organiser publishes results.' }),
    dates: Type.Object({ start: DateString(), end: DateString() }),
    location: CompetitionLocation,
    registration: CompetitionRegistration,
    banner: Type.Object({ horizontal: BannerSide, vertical: BannerSide }),
    media: Type.Object({ entryForm: NullableString() }),
    categories: Type.Optional(Type.Array(Category, { description: 'On the detail; on the list only with `include=categories`.' })),
    createdAt: DateTimeString(),
    updatedAt: DateTimeString(),
    links: Type.Object({
      self: Type.String(),
      categories: Type.String(),
      web: Type.String(),
      registration: Type.String({
        description: "The competition's entry flow, or the organiser's own URL when entries are collected elsewhere.",
      }),
    }),
  },
  { title: 'Competition' },
);

export type Competition = Static<typeof Competition>;
