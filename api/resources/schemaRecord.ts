import { KindGuard, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { registryStateOf } from './registryStateOf.ts';

/** A response schema's top-level fields in its order: what a route loads (projectionOf). */
export function fieldsOf<S extends TObject>(schema: S): Array<keyof S['properties'] & string> {
  const fields: Array<keyof S['properties'] & string> = [];
  for (const field in schema.properties) fields.push(field);
  return fields;
}

/**
 * `value` cut to what `schema` declares, in the schema's order: an object keeps only its
 * declared properties (recursively), an array maps its items, a nullable object keeps null.
 * Anything else is copied as it is (scalars, free maps such as a banner's).
 */
function cut(schema: TSchema, value: unknown): unknown {
  if (value === null || value === undefined || typeof value !== 'object') return value;
  if (KindGuard.IsUnion(schema)) {
    const object = schema.anyOf.find((member) => KindGuard.IsObject(member) || KindGuard.IsArray(member));
    return object ? cut(object, value) : value;
  }
  if (KindGuard.IsArray(schema) && Array.isArray(value)) return value.map((item: unknown) => cut(schema.items, item));
  if (KindGuard.IsObject(schema)) {
    // A stored document, walked by the schema that declares it.
    const record = value as Readonly<Record<string, unknown>>;
    const out: Record<string, unknown> = {};
    for (const [field, fieldSchema] of Object.entries(schema.properties)) {
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

/**
 * The body `schema` describes, from parts already of its type (stored fields beside what the
 * request computes): the schema's top-level fields in its order, each value as given, anything
 * else left out. The compiler checks that the parts make the whole body.
 */
export function inSchemaOrder<S extends TObject>(schema: S): (parts: Static<S>) => Static<S> {
  const fields = fieldsOf(schema);
  return (parts) => {
    const body: Partial<Static<S>> = {};
    for (const field of fields) if (field in parts) body[field] = parts[field];
    return body;
  };
}
