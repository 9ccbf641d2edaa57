import { Kind, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { registryStateOf } from './registryStateOf.ts';

/** A response schema's top-level fields in its order: what a route loads (projectionOf). */
export function fieldsOf(schema: TObject): string[] {
  return Object.keys(schema.properties);
}

/**
 * `value` cut to what `schema` declares, in the schema's order: an object keeps only its
 * declared properties (recursively), an array maps its items, a nullable object keeps null.
 * Anything else is copied as it is (scalars, free maps such as a banner's).
 */
function cut(schema: TSchema, value: unknown): unknown {
  if (value === null || value === undefined || typeof value !== 'object') return value;
  if (schema[Kind] === 'Union') {
    const object = (schema.anyOf as TSchema[]).find((member) => member[Kind] === 'Object' || member[Kind] === 'Array');
    return object ? cut(object, value) : value;
  }
  if (schema[Kind] === 'Array' && Array.isArray(value)) return value.map((item: unknown) => cut(schema.items as TSchema, item));
  if (schema[Kind] === 'Object') {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [field, fieldSchema] of Object.entries((schema as TObject).properties)) {
      if (field in record) out[field] = cut(fieldSchema, record[field]);
    }
    return out;
  }
  return value;
}

/**
 * The mapping of a stored document to the response `schema` describes: its declared fields
 * only, in the schema's order, the stored registry state made public (registryStateOf throws
 * on BUFFER). One declaration per field: adding one to the schema adds it to the response, to
 * the projection (fieldsOf) and to the document type (services/readModel/documents.ts).
 */
export function recordOf<S extends TObject>(schema: S): (stored: object) => Static<S> {
  return (stored) => {
    const record = cut(schema, stored) as Record<string, unknown>;
    if ('registryState' in record) record.registryState = registryStateOf(String(record.registryState));
    return record;
  };
}
