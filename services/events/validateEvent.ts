import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { AnyEventEnvelope, EVENT_TYPES, SCHEMA_VERSION, eventSchemas, isEventType } from '../../schemas/events/index.ts';
import type { DomainEvent } from '../../schemas/events/index.ts';
import { describeSchemaErrors } from './describeSchemaErrors.ts';

export type EventValidation = { ok: true; event: DomainEvent } | { ok: false; reason: string };

// Compiled once at load: compiling is slow and validation sits on the projector's hot path.
// `verbose` keeps the failing schema on each error, which the reasons read.
const ajv = new Ajv({ allErrors: true, strict: true, discriminator: true, verbose: true });
addFormats.default(ajv, ['uuid', 'date', 'date-time']);

const validateEnvelope = ajv.compile(AnyEventEnvelope);
const validateByType = new Map<string, ValidateFunction<DomainEvent>>(
  EVENT_TYPES.map((type) => [type, ajv.compile<DomainEvent>(eventSchemas[type])]),
);

/** Rules of one event that draft-07 JSON Schema cannot state. */
const contractViolation = (event: DomainEvent): string | null => {
  if (event.type === 'club.registered') {
    const { locations } = event.data;
    const mains = locations.filter((location) => location.type === 'main').length;
    if (locations.length > 0 && mains !== 1) {
      return `data.locations: must hold exactly one "main" location (found ${mains})`;
    }
  }
  return null;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a decoded message against the event contract: the envelope first (so an unknown type or
 * version gets a reason of its own), then that type's schema.
 */
export const validateEvent = (raw: unknown): EventValidation => {
  // Fast path for the valid event: its type's schema alone. That schema is the envelope with
  // `type` and `schemaVersion` pinned and a stricter `data`, so whatever passes it passes the
  // envelope too; only a failing event pays for the envelope-first walk below, which names the
  // reason. The outcome is the same for every input (validateEvent.unit.test.ts).
  if (isPlainObject(raw) && raw.schemaVersion === SCHEMA_VERSION && typeof raw.type === 'string') {
    const validate = validateByType.get(raw.type);
    if (validate?.(raw) && contractViolation(raw) === null) return { ok: true, event: raw };
  }
  return validateEventStepwise(raw);
};

/**
 * The stepwise check: the envelope, then type and version, then the type's schema and the
 * contract, so a fault is named at the first step it fails. It decides every input the way
 * validateEvent does (exported for the test that holds the two to the same answer).
 */
export const validateEventStepwise = (raw: unknown): EventValidation => {
  if (!isPlainObject(raw)) return { ok: false, reason: 'event must be a JSON object' };
  if (!validateEnvelope(raw)) return { ok: false, reason: describeSchemaErrors(validateEnvelope.errors, raw) };
  const type = raw.type as string;
  if (!isEventType(type)) return { ok: false, reason: `unknown event type ${JSON.stringify(type)}` };
  if (raw.schemaVersion !== SCHEMA_VERSION) {
    return { ok: false, reason: `unsupported schemaVersion ${String(raw.schemaVersion)} for "${type}"` };
  }
  const validate = validateByType.get(type);
  if (validate === undefined) throw new Error(`no validator compiled for "${type}"`);
  if (!validate(raw)) return { ok: false, reason: describeSchemaErrors(validate.errors, raw) };
  const violation = contractViolation(raw);
  return violation === null ? { ok: true, event: raw } : { ok: false, reason: violation };
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A Kafka message value → a valid event, or the reason it is not one. */
export const parseEventBytes = (bytes: Buffer | null): EventValidation => {
  if (bytes === null) return { ok: false, reason: 'message has no value' };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'message value is not valid UTF-8' };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `message value is not JSON: ${(error as Error).message}` };
  }
  return validateEvent(raw);
};
