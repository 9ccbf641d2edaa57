import { Type } from '@sinclair/typebox';
import type { SchemaOptions, Static, TSchema, TUnsafe } from '@sinclair/typebox';

// Building blocks of the event schemas. Nullable values use `type: [t, "null"]` rather than
// TypeBox's anyOf unions so that ajv reports one readable error per field ("must be a string or
// null") instead of one error per branch.

/** The patterns the error formatter knows how to explain in words. */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const COUNTRY_CODE_PATTERN = '^[A-Z]{2}$';
export const BANNER_KEY_PATTERN = '^(?:default|[1-9][0-9]*)$';

// Ids are compared as strings everywhere (event dedupe, Mongo keys, Kafka keys), so only the
// canonical lower-case form is accepted: an upper-case spelling would make a second record. The
// pattern says so in the published files too (ajv-formats' uuid also takes upper case and `urn:`).
export const Uuid = (options: SchemaOptions = {}) =>
  Type.String({ format: 'uuid', pattern: UUID_PATTERN, description: 'UUID, lower-case canonical form', ...options });

export const CalendarDate = (options: SchemaOptions = {}) => Type.String({ format: 'date', description: 'YYYY-MM-DD', ...options });

export const DateTime = (options: SchemaOptions = {}) =>
  Type.String({ format: 'date-time', description: 'RFC 3339 date-time with offset', ...options });

/** A string enum as one `enum` keyword (TypeBox would make an anyOf of consts). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: SchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** The same schema, with `null` also accepted. */
export const Nullable = <T extends TSchema>(schema: T): TUnsafe<Static<T> | null> => {
  const { type } = schema as { type?: unknown };
  if (typeof type !== 'string') throw new Error('Nullable() needs a schema with a single `type`');
  const nullable: Record<string, unknown> = { ...schema, type: [type, 'null'] };
  const values = (schema as { enum?: unknown }).enum;
  if (Array.isArray(values)) nullable.enum = [...(values as unknown[]), null];
  return Type.Unsafe<Static<T> | null>(nullable);
};

export const NullableString = () => Nullable(Type.String());
export const NullableInteger = () => Nullable(Type.Integer());
