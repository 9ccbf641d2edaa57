import type { TSchema } from '@sinclair/typebox';
import type { EndpointDefinition } from '../../schemas/api/endpoints.ts';
import { REMOVED_PARAMETERS } from './removedParameters.ts';
import { describeRange } from './describeRange.ts';
import { quoteValue } from './parameterLabel.ts';
import { exceedsLength } from './exceedsLength.ts';
import { ownEntry } from './ownEntry.ts';
import { controlCharacterProblem } from './controlCharacterProblem.ts';

// The pre-pass: what JSON Schema cannot say about a raw query string. It detects unknown,
// refused and repeated names, and turns each raw string into the JSON value the schema
// describes (integer grammar, exact booleans, comma lists), so ajv then checks ranges,
// enums and formats on typed values.

export interface PreparedQuery {
  /** Every parameter name in the order of its first appearance. */
  readonly names: string[];
  /** Typed values of the parameters that passed the pre-pass. */
  readonly values: Record<string, unknown>;
  /** Explanation per parameter that failed the pre-pass. */
  readonly problems: Map<string, string>;
}

type Conversion = { ok: true; value: unknown } | { ok: false; explanation: string };

const DIGITS = /^[0-9]+$/;

export function prepareQueryValues(definition: EndpointDefinition, rawQuery: string): PreparedQuery {
  const raw = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    const seen = raw.get(name);
    if (seen) seen.push(value);
    else raw.set(name, [value]);
  }

  const properties = definition.query.properties as Record<string, TSchema | undefined>;
  const values: Record<string, unknown> = {};
  const problems = new Map<string, string>();
  for (const [name, given] of raw) {
    const schema = ownEntry(properties, name);
    const refused = ownEntry(definition.refusedParameters, name);
    if (refused !== undefined) problems.set(name, refused);
    else if (!schema) problems.set(name, ownEntry(REMOVED_PARAMETERS, name) ?? 'unknown parameter');
    else if (given.length > 1) problems.set(name, 'given more than once');
    else {
      const converted = convert(schema, given[0] ?? '');
      if (converted.ok) values[name] = converted.value;
      else problems.set(name, converted.explanation);
    }
  }
  return { names: [...raw.keys()], values, problems };
}

function convert(schema: TSchema, text: string): Conversion {
  if (text.trim() === '') return { ok: false, explanation: 'must not be empty' };
  const control = controlCharacterProblem(text);
  if (control) return { ok: false, explanation: control };
  // Checked on the text as sent, before any trimming or splitting, as the document's maxLength reads.
  const tooLong = lengthProblem(schema, text);
  if (tooLong) return { ok: false, explanation: tooLong };
  switch (schema.type) {
    case 'integer':
      return toInteger(schema as { minimum?: number; maximum?: number }, text);
    case 'boolean':
      if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
      return { ok: false, explanation: `must be true or false (got ${quoteValue(text)})` };
    case 'array':
      return toList(text);
    default:
      return { ok: true, value: text.trim() };
  }
}

function toInteger(schema: { minimum?: number; maximum?: number }, text: string): Conversion {
  if (!DIGITS.test(text)) {
    return { ok: false, explanation: `${describeRange(schema)}, written with decimal digits only (got ${quoteValue(text)})` };
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    const rule = schema.maximum === undefined ? 'is too large' : describeRange(schema);
    return { ok: false, explanation: `${rule} (got ${quoteValue(text)})` };
  }
  return { ok: true, value };
}

function lengthProblem(schema: TSchema, text: string): string | undefined {
  const bound = (schema.type === 'array' ? (schema as { items?: TSchema }).items : schema)?.maxLength as number | undefined;
  if (bound === undefined) return undefined;
  const long =
    schema.type === 'array' ? text.split(',').find((item) => exceedsLength(item, bound)) : exceedsLength(text, bound) ? text : undefined;
  if (long === undefined) return undefined;
  const what = schema.type === 'array' ? 'each item must be' : 'must be';
  return `${what} at most ${bound} characters long (got ${quoteValue(long)})`;
}

function toList(text: string): Conversion {
  const items = text.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) {
    return { ok: false, explanation: `must be a comma-separated list without empty items (got ${quoteValue(text)})` };
  }
  return { ok: true, value: [...new Set(items)] };
}
