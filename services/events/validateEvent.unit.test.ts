import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EVENT_TYPES, parseEventBytes, validateEvent, validateEventStepwise } from './index.ts';
import { exampleEvent, exampleEvents } from '../../test/support/exampleEvents.ts';
import { reasonOf, withData } from './rejections.test.ts';

describe('validateEvent accepts', () => {
  it('has at least one example of every event type', () => {
    expect(new Set(exampleEvents.map((event) => event.type))).toEqual(new Set(EVENT_TYPES));
  });

  it.each(exampleEvents.map((event, index) => [index, event.type, event] as const))('example %i (%s)', (_index, _type, event) => {
    expect(validateEvent(event)).toEqual({ ok: true, event });
  });

  it('an empty subset: it changes nothing, and refusing it would leave a version gap', () => {
    for (const type of ['competition.details_changed', 'person.details_changed', 'club.details_changed'] as const) {
      expect(validateEvent(withData(type, () => ({}))).ok).toBe(true);
    }
    expect(validateEvent(withData('competition.category_changed', (d) => ({ ...d, changes: {} }))).ok).toBe(true);
  });

  it('a partial subset, and a nested object in it replaced whole', () => {
    const partial = withData('competition.details_changed', () => ({ resultsUrl: 'https://results.example.org/riga' }));
    expect(validateEvent(partial).ok).toBe(true);
    const nested = withData('competition.details_changed', () => ({ dates: { start: '2025-06-21', end: '2025-06-22' } }));
    expect(validateEvent(nested).ok).toBe(true);
  });

  it('null where the contract says nullable', () => {
    const drafted = withData('competition.drafted', (d) => ({
      ...d,
      type: null,
      organizer: null,
      descriptionFormatted: null,
      banner: { horizontal: null, vertical: null },
    }));
    expect(validateEvent(drafted).ok).toBe(true);
    const cleared = withData('competition.details_changed', () => ({ resultsUrl: null, organizer: null }));
    expect(validateEvent(cleared).ok).toBe(true);
    const category = withData('competition.category_added', (d) => ({
      category: { ...(d.category as object), style: null, level: null, ageGroup: null },
    }));
    expect(validateEvent(category).ok).toBe(true);
    const person = withData('person.registered', (d) => ({ ...d, name: null, country: null }));
    expect(validateEvent(person).ok).toBe(true);
  });

  it('a date-time with a numeric offset or fractional seconds', () => {
    const event = exampleEvent('competition.published');
    expect(validateEvent({ ...event, occurredAt: '2025-03-02T10:00:00.123+02:00' }).ok).toBe(true);
  });

  it('a club with no location at all', () => {
    expect(validateEvent(withData('club.registered', (d) => ({ ...d, locations: [] }))).ok).toBe(true);
  });
});

describe('validateEvent rejects the envelope', () => {
  const event = exampleEvent('competition.drafted');

  it('an unknown type, before looking at data', () => {
    expect(reasonOf({ ...event, type: 'competition.renamed' })).toBe('unknown event type "competition.renamed"');
  });

  it('a schemaVersion other than 1', () => {
    expect(reasonOf({ ...event, schemaVersion: 2 })).toBe('unsupported schemaVersion 2 for "competition.drafted"');
  });

  it('an extra top-level field', () => {
    expect(reasonOf({ ...event, foo: 1 })).toBe('unexpected field "foo"');
  });

  it('a missing field', () => {
    const { aggregateId: _, ...rest } = event;
    expect(reasonOf(rest)).toBe('missing required field "aggregateId"');
  });

  it('a bad uuid, an upper-case one and a urn one', () => {
    expect(reasonOf({ ...event, eventId: 'not-a-uuid' })).toBe('eventId: must be a uuid');
    expect(reasonOf({ ...event, eventId: event.eventId.toUpperCase() })).toBe('eventId: must be a uuid');
    expect(reasonOf({ ...event, aggregateId: `urn:uuid:${event.aggregateId}` })).toBe('aggregateId: must be a uuid');
  });

  it('a date-time without offset, and a bare date', () => {
    const expected = 'occurredAt: must be a date-time with offset (RFC 3339, e.g. 2025-03-01T09:30:00Z)';
    expect(reasonOf({ ...event, occurredAt: '2025-03-01T10:00:00' })).toBe(expected);
    expect(reasonOf({ ...event, occurredAt: '2025-03-01' })).toBe(expected);
  });

  it('aggregateVersion 0 or fractional', () => {
    expect(reasonOf({ ...event, aggregateVersion: 0 })).toBe('aggregateVersion: must be 1 or more');
    expect(reasonOf({ ...event, aggregateVersion: 1.5 })).toBe('aggregateVersion: must be an integer');
  });

  it('data that is not an object', () => {
    expect(reasonOf({ ...event, data: null })).toBe('data: must be an object');
  });

  it('something that is not an object at all', () => {
    for (const raw of [null, 42, 'event', [event]]) expect(reasonOf(raw)).toBe('event must be a JSON object');
  });

  it('every envelope fault at once, in one line', () => {
    expect(reasonOf({ ...event, eventId: 'x', aggregateVersion: 0 })).toBe('eventId: must be a uuid; aggregateVersion: must be 1 or more');
  });
});

describe('parseEventBytes', () => {
  const event = exampleEvent('person.registered');

  it('decodes and validates a message value', () => {
    expect(parseEventBytes(Buffer.from(JSON.stringify(event)))).toEqual({ ok: true, event });
  });

  it('rejects a value that is not JSON', () => {
    const result = parseEventBytes(Buffer.from('{"eventId":'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/^message value is not JSON: /);
  });

  it('rejects JSON that is not an object, a tombstone and bytes that are not UTF-8', () => {
    expect(parseEventBytes(Buffer.from('[1,2]'))).toEqual({ ok: false, reason: 'event must be a JSON object' });
    expect(parseEventBytes(null)).toEqual({ ok: false, reason: 'message has no value' });
    expect(parseEventBytes(Buffer.from([0x7b, 0xff, 0x7d]))).toEqual({ ok: false, reason: 'message value is not valid UTF-8' });
  });

  it('passes the schema reason through', () => {
    expect(parseEventBytes(Buffer.from(JSON.stringify({ ...event, schemaVersion: 3 })))).toEqual({
      ok: false,
      reason: 'unsupported schemaVersion 3 for "person.registered"',
    });
  });
});

describe('validateEvent fast path', () => {
  // validateEvent tries the event's own type schema first and walks the envelope only for a
  // reason; both must give the same answer for every input, valid or not.
  const value = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom('2026-11-23T12:00:00Z', '2026-11-23', 'not-a-uuid', EVENT_TYPES[0], 'competition.unknown', 0, 1, 2, 1.5, {}, []),
  );
  it('decides every mutated example as the stepwise check does, with the same reason', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...exampleEvents),
        fc.constantFrom('eventId', 'type', 'schemaVersion', 'occurredAt', 'aggregateId', 'aggregateVersion', 'data', 'extra'),
        value,
        fc.boolean(),
        (event, field, replacement, mutateData) => {
          const raw: Record<string, unknown> = structuredClone(event);
          if (mutateData && typeof raw.data === 'object' && raw.data !== null) {
            const keys = Object.keys(raw.data);
            (raw.data as Record<string, unknown>)[keys[0] ?? 'extra'] = replacement;
          } else raw[field] = replacement;
          expect(validateEvent(raw)).toEqual(validateEventStepwise(raw));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
