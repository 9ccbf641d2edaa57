import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { countryFields } from './country.ts';
import { NullableString, StringEnum } from './primitives.ts';
import {
  COMPETITION_SORTS,
  COMPETITION_STATUSES,
  ENTRY_TYPES,
  JUDGE_POSITIONS,
  MEMBERSHIP_STATUSES,
  PERIODS,
  REGISTRATION_STATES,
  REGISTRATION_STATUSES,
  REGISTRY_STATES,
  STYLES,
} from '../enumValues.ts';

const count = Type.Integer({ minimum: 0 });

/**
 * How `/filters` and `/registry/filters` order names: one order for every caller, since a body is
 * cached for all; `tieBreak` keeps equal names in a fixed order, so the ETag is stable.
 */
const nameOrder = (tieBreak: string): string =>
  "Sorted by `name` in the Unicode (CLDR) root collation, the base every language's alphabet refines: letters with diacritics sort with their base letter " +
  `("Ústí nad Labem" before "Ventspils"), case after letters, digits by their number; then by code units, then by \`${tieBreak}\`. ` +
  "For a language's own order (e.g. Estonian z after s), re-sort with its collator.";

/** Body of `GET /filters`; counts cover public competitions only. */
export const CompetitionFilters = Type.Object({
  data: Type.Object(
    {
      countries: Type.Array(Type.Object({ ...countryFields, competitionsCount: count }), {
        description: nameOrder('id'),
      }),
      cities: Type.Array(Type.Object({ name: Type.String(), countryCode: NullableString(), competitionsCount: count }), {
        description: nameOrder('countryCode'),
      }),
      types: Type.Array(Type.Object({ code: Type.String(), label: Type.String() })),
      statuses: Type.Array(StringEnum(COMPETITION_STATUSES)),
      registrationStatuses: Type.Array(StringEnum(REGISTRATION_STATUSES)),
      registrationStates: Type.Array(StringEnum(REGISTRATION_STATES)),
      periods: Type.Array(StringEnum(PERIODS)),
      entryTypes: Type.Array(StringEnum(ENTRY_TYPES)),
      styles: Type.Array(StringEnum(STYLES)),
      sorts: Type.Array(StringEnum(COMPETITION_SORTS)),
    },
    { title: 'CompetitionFilters' },
  ),
});

/** Body of `GET /registry/filters`; counts cover `registryState=REGISTRY` (the archive is not counted). */
export const RegistryFilters = Type.Object({
  data: Type.Object(
    {
      countsScope: Type.Literal('registryState=REGISTRY'),
      countries: Type.Array(
        Type.Object({ ...countryFields, counts: Type.Object({ dancers: count, coaches: count, judges: count, clubs: count }) }),
        { description: nameOrder('id') },
      ),
      danceClasses: Type.Array(Type.Integer()),
      judgeCategories: Type.Array(Type.Integer()),
      judgePositions: Type.Array(StringEnum(JUDGE_POSITIONS)),
      statuses: Type.Array(StringEnum(MEMBERSHIP_STATUSES)),
      registryStates: Type.Array(StringEnum(REGISTRY_STATES)),
    },
    { title: 'RegistryFilters' },
  ),
});

export type CompetitionFilters = Static<typeof CompetitionFilters>;
export type RegistryFilters = Static<typeof RegistryFilters>;
