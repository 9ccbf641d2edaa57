import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { Nullable } from './primitives.ts';

/** A country wherever a body names one: the federation's id, the name and the code. */
export const countryFields = { id: Type.Integer(), name: Type.String(), code: Type.String() };

export const Country = Type.Object(countryFields);

/** A registry record's country: its code is ISO 3166-1 alpha-2, as the events carry it (a venue's is as typed). */
export const RegistryCountry = Nullable(
  Type.Object({ ...countryFields, code: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' }) }),
  { title: 'RegistryCountry' },
);

export type Country = Static<typeof Country>;
export type RegistryCountry = Static<typeof RegistryCountry>;
