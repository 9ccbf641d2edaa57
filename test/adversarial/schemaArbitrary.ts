import fc from 'fast-check';

// fast-check arbitraries from the event JSON Schemas (schemas/events/json), with a hostile text in
// every free string slot: valid events that carry what nobody meant to send.

/** The subset of JSON Schema draft-07 the event schemas use. */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  propertyNames?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  uniqueItems?: boolean;
  oneOf?: JsonSchema[];
}

const PATTERNS: Record<string, fc.Arbitrary<string>> = {
  '^[A-Z]{2}$': fc.constantFrom('LV', 'DE', 'JP', 'ZZ'),
  '^(?:default|[1-9][0-9]*)$': fc.constantFrom('default', '640', '1280'),
};

const isoDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

/** An arbitrary of the values `schema` accepts; `text` fills every string the schema leaves free. */
export function schemaArbitrary(schema: JsonSchema, text: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.oneOf) return fc.oneof(...schema.oneOf.map((branch) => schemaArbitrary({ ...schema, oneOf: undefined, ...branch }, text)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => schemaArbitrary({ ...schema, type }, text)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case 'string':
      return stringArbitrary(schema, text);
    case 'array': {
      const item = schemaArbitrary(schema.items ?? {}, text);
      const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.max(3, schema.minItems ?? 0) };
      return schema.uniqueItems
        ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(item, constraints);
    }
    case 'object':
      return objectArbitrary(schema, text);
    default:
      return fc.constant(null);
  }
}

function stringArbitrary(schema: JsonSchema, text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid({ version: 4 });
  if (schema.format === 'date') return isoDate.map((iso) => iso.slice(0, 10));
  if (schema.format === 'date-time') return isoDate;
  if (schema.pattern !== undefined) {
    const known = PATTERNS[schema.pattern];
    if (!known) throw new Error(`no arbitrary for the pattern ${schema.pattern}`);
    return known;
  }
  return (schema.minLength ?? 0) > 0 ? text.filter((s) => s.length >= (schema.minLength ?? 0)) : text;
}

function objectArbitrary(schema: JsonSchema, text: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  // A map keyed by a pattern (a banner's sizes): at most its default or one size.
  if (schema.propertyNames && !schema.properties) {
    const value = typeof schema.additionalProperties === 'object' ? schemaArbitrary(schema.additionalProperties, text) : text;
    return fc
      .option(fc.tuple(schemaArbitrary({ type: 'string', ...schema.propertyNames }, text) as fc.Arbitrary<string>, value), {
        nil: undefined,
      })
      .map((entry) => (entry ? { [entry[0]]: entry[1] } : {}));
  }
  const required = new Set(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) model[name] = schemaArbitrary(property, text);
  return fc.record(model, { requiredKeys: [...required] });
}
