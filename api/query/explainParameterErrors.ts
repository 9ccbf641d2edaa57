import type { ErrorObject } from 'ajv';
import { describeRange } from './describeRange.ts';
import { quoteValue } from './parameterLabel.ts';
import { ownEntry } from './ownEntry.ts';

// Turns ajv's errors into one explanation per parameter. Several errors on one parameter
// (two bad items of a list, `format` and `pattern` on one uuid) become one sentence.

interface SchemaFacts {
  minimum?: number;
  maximum?: number;
  format?: string;
  description?: string;
}

const VALUE_HINTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  registryState: { BUFFER: 'the buffer is internal and never returned' },
};

/** One explanation per query parameter named in `errors` (the 400's `details`), by parameter name. */
export function explainParameterErrors(errors: readonly ErrorObject[]): Map<string, string> {
  const byParameter = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const name = parameterOf(error);
    const list = byParameter.get(name);
    if (list) list.push(error);
    else byParameter.set(name, [error]);
  }
  const explanations = new Map<string, string>();
  for (const [name, list] of byParameter) explanations.set(name, explain(name, list));
  return explanations;
}

function parameterOf(error: ErrorObject): string {
  const segment = error.instancePath.split('/')[1] ?? '';
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

function explain(name: string, errors: ErrorObject[]): string {
  const enumErrors = errors.filter((error) => error.keyword === 'enum');
  const first = enumErrors[0];
  if (first) {
    const bad = [...new Set(enumErrors.map((error) => String(error.data)))];
    const accepted = (first.params as { allowedValues: unknown[] }).allowedValues.map(String);
    const hints = bad.map((value) => ownEntry(ownEntry(VALUE_HINTS, name), value)).filter((hint) => hint !== undefined);
    const noun = bad.length > 1 ? 'unsupported values' : 'unsupported value';
    return `${noun} ${bad.map(quoteValue).join(', ')} (accepted: ${[accepted.join(', '), ...hints].join('; ')})`;
  }
  const error = errors[0];
  return error ? explainOne(error) : 'is invalid';
}

function explainOne(error: ErrorObject): string {
  const schema = (error.parentSchema ?? {}) as SchemaFacts;
  const got = typeof error.data === 'string' ? ` (got ${quoteValue(error.data)})` : ` (got ${String(error.data)})`;
  switch (error.keyword) {
    case 'minimum':
    case 'maximum':
      return describeRange(schema) + got;
    case 'minLength':
      return `must be at least ${String((error.params as { limit: number }).limit)} characters long after trimming${got}`;
    case 'format':
    case 'pattern':
      return describeFormat(schema, error.data) + got;
    default:
      return (error.message ?? 'is invalid') + got;
  }
}

function describeFormat(schema: SchemaFacts, data: unknown): string {
  switch (schema.format) {
    case 'date':
      return 'must be a calendar day that exists, written YYYY-MM-DD';
    case 'date-time': {
      const hint = typeof data === 'string' && data.includes(' ') ? ' (a `+` in the offset must be written %2B)' : '';
      return `must be an RFC 3339 date-time with a time zone, e.g. 2025-03-01T12:00:00Z${hint}`;
    }
    case 'uuid':
      return 'must be a UUID';
    default:
      return schema.description === undefined ? 'has an invalid form' : `must be ${schema.description}`;
  }
}
