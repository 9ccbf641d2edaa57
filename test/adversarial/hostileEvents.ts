import fc from 'fast-check';
import { EVENT_TYPES, eventSchemas, type EventType } from '../../schemas/events/index.ts';
import { hostileMarkdown, hostileString, hugeTexts } from './hostileStrings.ts';
import { schemaArbitrary, type JsonSchema } from './schemaArbitrary.ts';

/** Kafka's default max.message.bytes is 1,048,588; a hostile message stays just under it. */
export const NEAR_LIMIT_BYTES = 1_000_000;

/** The published JSON of a type's schema (TypeBox's symbol keys dropped, as the write side sees it). */
const schemaOf = (type: EventType): JsonSchema => JSON.parse(JSON.stringify(eventSchemas[type])) as JsonSchema;

/**
 * Events of every type with hostile text in their free string slots, `perType` of each,
 * repeatable from `seed`; events whose JSON would pass the broker's limit are left out. Nearly all
 * are valid: the schemas cannot state every rule of the contract (validateEvent's own checks).
 */
export function hostileEvents(perType: number, seed: number): Record<string, unknown>[] {
  return EVENT_TYPES.flatMap(
    (type, i) =>
      fc
        .sample(schemaArbitrary(schemaOf(type), hostileString({ huge: true })), { numRuns: perType, seed: seed + i })
        .filter((event) => Buffer.byteLength(JSON.stringify(event)) < NEAR_LIMIT_BYTES) as Record<string, unknown>[],
  );
}

/** A competition draft of our own making whose description (or name) is one of the hostile texts. */
export function draftWith(
  base: Record<string, unknown>,
  fields: { descriptionFormatted?: string; name?: string },
): Record<string, unknown> {
  const data = base.data as Record<string, unknown>;
  return { ...base, aggregateVersion: 1, data: { ...data, ...fields } };
}

/** The hand-picked cases: each hostile Markdown and huge text as a description, and as a name. */
export function pickedTexts(): { label: string; text: string }[] {
  return [
    ...Object.entries(hostileMarkdown).map(([label, text]) => ({ label: `markdown ${label}`, text })),
    ...Object.entries(hugeTexts).map(([label, text]) => ({ label: `huge ${label}`, text })),
  ];
}
