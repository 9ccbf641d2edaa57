import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { StringEnum } from './primitives.ts';
import { ENTRY_TYPES, STYLES } from '../enumValues.ts';
import { CommaList, IntegerParameter, search } from './queryParameters.ts';

/** Query parameters of `GET /competitions/{idOrSlug}/categories`. */
export const CompetitionCategoriesQuery = Type.Object(
  {
    entryType: CommaList(StringEnum(ENTRY_TYPES), 'Entry type of the category.'),
    style: CommaList(StringEnum(STYLES), 'Dance style of the category.'),
    level: IntegerParameter('Category level (class), 1 to 10.', { minimum: 1, maximum: 10 }),
    search: search('the category name'),
  },
  { additionalProperties: false },
);

export type CompetitionCategoriesQuery = Static<typeof CompetitionCategoriesQuery>;
