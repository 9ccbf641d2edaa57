import { Type } from '@sinclair/typebox';
import type { TSchema } from '@sinclair/typebox';
import { DateTime, Uuid } from './primitives.ts';

export const SCHEMA_VERSION = 1;
export const EVENT_SCHEMA_BASE_ID = 'https://schemas.federation.example/events/v1/';

/** The envelope fields every event carries, whatever its type. */
const commonFields = {
  eventId: Uuid(),
  occurredAt: DateTime(),
  aggregateId: Uuid(),
  aggregateVersion: Type.Integer({ minimum: 1 }),
};

/**
 * The envelope of any event, checked before the type is known: `type` and `schemaVersion` are
 * read loosely here so that an unknown type or version gets a reason of its own.
 */
export const AnyEventEnvelope = Type.Object(
  { ...commonFields, type: Type.String(), schemaVersion: Type.Integer(), data: Type.Object({}) },
  { additionalProperties: false },
);

/** The full schema of one event type: the envelope with that type's `data`. */
export const eventEnvelope = <T extends string, D extends TSchema>(type: T, data: D) =>
  Type.Object(
    {
      eventId: commonFields.eventId,
      type: Type.Literal(type),
      schemaVersion: Type.Unsafe<typeof SCHEMA_VERSION>({ type: 'integer', const: SCHEMA_VERSION }),
      occurredAt: commonFields.occurredAt,
      aggregateId: commonFields.aggregateId,
      aggregateVersion: commonFields.aggregateVersion,
      data,
    },
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: `${EVENT_SCHEMA_BASE_ID}${type}.json`,
      $comment: 'Generated from schemas/events/*.ts by scripts/exportEventSchemas.ts: edit those, not this file.',
      title: type,
      additionalProperties: false,
    },
  );
