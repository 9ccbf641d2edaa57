import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

// Response bodies against the schemas of schemas/api, CLOSED: every object schema that lists
// its properties is validated as if it said `additionalProperties: false`, so a leaked
// internal field (`q`, `_id`, `visible`, `stamp`...) or a stray key fails as surely as a
// missing one or a wrong type.
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const compiled = new WeakMap<TSchema, ValidateFunction>();

function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = closed(value);
  if (copy.type === 'object' && typeof copy.properties === 'object' && copy.additionalProperties === undefined)
    copy.additionalProperties = false;
  return copy;
}

export function expectMatchesSchema(body: unknown, schema: TSchema): void {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(closed(schema) as object);
    compiled.set(schema, validate);
  }
  const ok = validate(body);
  expect(ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`)).toEqual([]);
}
