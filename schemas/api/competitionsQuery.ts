import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { StringEnum } from './primitives.ts';
import { COMPETITION_INCLUDES, COMPETITION_SORTS, COMPETITION_STATUSES, PERIODS, REGISTRATION_STATUSES } from '../enumValues.ts';
import {
  BooleanParameter,
  CommaList,
  DateParameter,
  DateTimeParameter,
  TextParameter,
  country,
  countryId,
  limit,
  order,
  page,
  search,
} from './queryParameters.ts';
import type { WithDefaults } from './withDefaults.ts';

/** Competition type codes are published by `/filters`; the grammar keeps junk out of queries. */
export const TYPE_CODE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$';
/** The grammar's length, stated on its own so the document shows the bound (within MAX_TEXT_LENGTH). */
const TYPE_CODE_MAX_LENGTH = 64;

/** The cross-field rule the server checks after the schema (api/query/crossFieldProblems.ts). */
const DATE_RANGE_RULE =
  'With both `dateFrom` and `dateTo`, `dateTo` must not be before `dateFrom`: otherwise 400 (`dateTo: must not be before dateFrom`).';

/** Query parameters of `GET /competitions`. */
export const CompetitionsQuery = Type.Object(
  {
    search: search('name, city, country, venue and description'),
    country: country('the venue country'),
    countryId: countryId('the venue country'),
    city: TextParameter('Case-insensitive **prefix** match on the venue city (same rule as `/clubs`).'),
    status: CommaList(StringEnum(COMPETITION_STATUSES), 'Competition status.'),
    type: CommaList(
      Type.String({
        pattern: TYPE_CODE_PATTERN,
        maxLength: TYPE_CODE_MAX_LENGTH,
        description: 'a type code as published by /filters (letters, digits, `_`, `.`, `-`)',
      }),
      'Competition type codes, as published by `/filters` (`types[].code`).',
    ),
    registrationStatus: Type.Optional(
      StringEnum(REGISTRATION_STATUSES, { description: 'Registration status as set by the organiser (`registration.status`).' }),
    ),
    registrationOpen: BooleanParameter(
      '`true` keeps only competitions whose `registration.state` is `open` (entries accepted today); `false` keeps the others.',
    ),
    period: Type.Optional(
      StringEnum(PERIODS, {
        description:
          'By calendar day in the configured time zone (default UTC); a competition running today is `ongoing` for the whole day.',
      }),
    ),
    // The pair's rule is one OpenAPI cannot express, so both descriptions state it.
    dateFrom: DateParameter(`Inclusive start of a day range; keeps competitions overlapping the range. ${DATE_RANGE_RULE}`),
    dateTo: DateParameter(`Inclusive end of a day range; keeps competitions overlapping the range. ${DATE_RANGE_RULE}`),
    updatedSince: DateTimeParameter(
      'Incremental sync: only competitions updated at or after this instant. Such responses are never cached: `Cache-Control: no-store`, `X-Cache: BYPASS`.',
    ),
    include: CommaList(
      StringEnum(COMPETITION_INCLUDES),
      'Extra data: `categories` adds `categories` and `registration.startsCount`; `entriesCount` adds `registration.entriesCount`.',
    ),
    sort: Type.Optional(
      StringEnum(COMPETITION_SORTS, { default: 'startDate', description: 'Sort key; default `startDate`. Ties end with `id` ascending.' }),
    ),
    order,
    page,
    limit,
  },
  { additionalProperties: false },
);

export type CompetitionsQuery = WithDefaults<Static<typeof CompetitionsQuery>, 'sort' | 'order' | 'page' | 'limit'>;
