import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { Nullable, NullableString, StringEnum, UuidString } from './primitives.ts';
import { ENTRY_TYPES, STYLES } from '../enumValues.ts';

/** A competition category. `title` names the component in the OpenAPI document. */
export const Category = Type.Object(
  {
    id: UuidString(),
    name: Type.String(),
    entryType: StringEnum(ENTRY_TYPES),
    style: Nullable(StringEnum(STYLES)),
    ageGroup: NullableString(),
    birthYearRange: NullableString(),
    participantDivision: NullableString(),
    level: Nullable(Type.Integer({ minimum: 1, maximum: 10 }), { description: 'Class, 1 to 10.' }),
    dances: Type.Array(Type.String()),
    displayOrder: Type.Integer(),
    startsCount: Type.Integer({
      minimum: 0,
      description: "How many entries include this category. Summed over categories it can exceed the competition's `entriesCount`.",
    }),
  },
  { title: 'Category' },
);

export type Category = Static<typeof Category>;
