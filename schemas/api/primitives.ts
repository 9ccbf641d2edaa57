import { Type } from '@sinclair/typebox';
import type { SchemaOptions, TSchema, TUnion, TNull, TUnsafe } from '@sinclair/typebox';

// Building blocks shared by the query and response schemas. Enums are plain JSON Schema `enum`
// (not TypeBox's union of literals) so ajv reports the accepted values and the OpenAPI
// document shows a readable list.

export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnion<[T, TNull]> {
  return Type.Union([schema, Type.Null()], options);
}

// ajv-formats' `uuid` also accepts a `urn:uuid:` prefix; the pattern keeps ids to the bare form.
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export function UuidString(options: SchemaOptions = {}) {
  return Type.String({ ...options, format: 'uuid', pattern: UUID_PATTERN });
}

/** A calendar day `YYYY-MM-DD` with no time and no time zone; must exist in the calendar. */
export function DateString(options: SchemaOptions = {}) {
  return Type.String({ ...options, format: 'date' });
}

/** An RFC 3339 (ISO 8601) date-time with a time zone offset. */
export function DateTimeString(options: SchemaOptions = {}) {
  return Type.String({ ...options, format: 'date-time' });
}

export const NullableString = (options: SchemaOptions = {}) => Nullable(Type.String(), options);
export const NullableInteger = (options: SchemaOptions = {}) => Nullable(Type.Integer(), options);
