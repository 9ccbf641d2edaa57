import { Type } from '@sinclair/typebox';
import type { TSchema } from '@sinclair/typebox';
import { DateString, DateTimeString, StringEnum, UuidString } from './primitives.ts';
import { REGISTRY_STATES, SEXES, SORT_ORDERS } from '../enumValues.ts';

// Query parameters shared by several endpoints. Each carries the description the OpenAPI
// document publishes, so the rule a client reads is the rule ajv applies.

const LIST_RULE = 'Comma-separated; items are trimmed, an empty item answers 400, duplicates are ignored.';
const INTEGER_RULE = 'Decimal digits only (no sign, decimal point, exponent or spaces).';
const BOOLEAN_RULE = 'Exactly `true` or `false`.';

/**
 * The largest integer any parameter accepts: 2^53 − 1, the last one a JavaScript number holds
 * exactly (a larger one would be read as a neighbour). Stated as `maximum` wherever no smaller
 * bound applies, so the document says what answers 400.
 */
export const LARGEST_INTEGER = Number.MAX_SAFE_INTEGER;

/** A comma-separated list of enumerated values (OpenAPI `style: form`, `explode: false`). */
export function CommaList<T extends TSchema>(item: T, description: string) {
  return Type.Optional(
    // No `uniqueItems`: a repeated item is accepted and ignored (decisions.md), not refused.
    Type.Array(item, { minItems: 1, description: `${description} ${LIST_RULE}` }),
  );
}

export function IntegerParameter(description: string, range: { minimum?: number; maximum?: number } = {}) {
  return Type.Optional(Type.Integer({ minimum: 0, maximum: LARGEST_INTEGER, ...range, description: `${description} ${INTEGER_RULE}` }));
}

export function BooleanParameter(description: string) {
  return Type.Optional(Type.Boolean({ description: `${description} ${BOOLEAN_RULE}` }));
}

// What String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), spelled out:
// `\s` means other sets in other regex dialects (a client's, the fuzzer's Python).
const TRIMMED = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
// Control characters other than white space answer 400 (api/query/controlCharacterProblem.ts).
const CONTROL = '\\u0000-\\u0008\\u000e-\\u001f\\u007f-\\u009f';
const KEPT = `[^${TRIMMED}${CONTROL}]`;
const ANY = `[^${CONTROL}]*`;

/**
 * The most characters (Unicode code points, as JSON Schema counts them) of a text parameter or
 * path segment as sent: every one reaches a database filter, a cache key and a log line, so
 * its cost is bounded whatever a client writes (decisions.md, "Hostile input").
 */
export const MAX_TEXT_LENGTH = 100;

/**
 * Free text: the server trims it, then needs `minLength` characters (1 or 2). The pattern says
 * the same of the text as sent (a character that is kept, or two with anything between, and no
 * control character), so a value of spaces around one letter is not described as valid. `maxLength` counts the text as
 * sent, spaces included, so the document and the server agree on every value.
 */
export function TextParameter(description: string, options: { minLength?: 1 | 2 } = {}) {
  const minLength = options.minLength ?? 1;
  const pattern = minLength === 1 ? `^${ANY}${KEPT}${ANY}$` : `^${ANY}${KEPT}${ANY}${KEPT}${ANY}$`;
  return Type.Optional(
    Type.String({ minLength, maxLength: MAX_TEXT_LENGTH, pattern, description: `${description} At most ${MAX_TEXT_LENGTH} characters.` }),
  );
}

export function DateParameter(description: string) {
  return Type.Optional(DateString({ description: `${description} A calendar day \`YYYY-MM-DD\` that exists.` }));
}

export function DateTimeParameter(description: string) {
  return Type.Optional(
    DateTimeString({
      description: `${description} An RFC 3339 (ISO 8601) date-time with a time zone, e.g. \`2025-03-01T12:00:00Z\`; write \`+\` in an offset as \`%2B\`. A leap second (\`:60\`) answers 400.`,
    }),
  );
}

export function UuidParameter(description: string) {
  return Type.Optional(UuidString({ description: `${description} A UUID.` }));
}

export const page = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: LARGEST_INTEGER,
    default: 1,
    description: `Page number, 1 to ${LARGEST_INTEGER} (2^53 − 1); default 1. A page past the last one answers 200 with empty \`data\` and correct \`meta\`. ${INTEGER_RULE}`,
  }),
);

export const limit = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 20,
    description: `Page size, 1 to 100; default 20. Outside the range answers 400. ${INTEGER_RULE}`,
  }),
);

export const order = Type.Optional(
  StringEnum(SORT_ORDERS, {
    default: 'asc',
    description: 'Sort direction; default `asc`. Equal sort keys always end with `id` ascending, so pages never overlap or skip.',
  }),
);

export function search(over: string) {
  return TextParameter(
    `Case-insensitive and diacritic-insensitive substring match (\`janis\` finds \`Jānis\`) over ${over}. At least 2 characters after trimming.`,
    { minLength: 2 },
  );
}

export const country = (where: string) =>
  TextParameter(`ISO 3166-1 alpha-2 code (case-insensitive) or full country name (case-insensitive, exact), matched against ${where}.`);

export const countryId = (where: string) =>
  IntegerParameter(`Internal country id (as published by the filter endpoints), matched against ${where}.`);

export const registryState = Type.Optional(
  Type.Array(StringEnum(REGISTRY_STATES), {
    minItems: 1,
    default: ['REGISTRY'],
    description: `Where the record sits; default \`REGISTRY\`. \`ARCHIVE\` reads the archive alone; both values merge them. Any other value, including \`BUFFER\`, answers 400. ${LIST_RULE}`,
  }),
);

export const sex = Type.Optional(StringEnum(SEXES, { description: 'Sex of the person.' }));
