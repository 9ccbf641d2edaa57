import type { DomainEvent, EventData, EventOfType, EventType } from '../../services/events/index.ts';

// Given-events builder for the unit tests: versions run 1, 2, 3... per aggregate and event ids
// are unique, as the write side produces them.

/** A uuid whose first 24 characters are `prefix` and whose last 12 are `n` in hex. */
export const numberedUuid = (prefix: string, n: number): string => `${prefix}${n.toString(16).padStart(12, '0')}`;

/** Uuids numbered 1, 2, 3... under `prefix`: unique among those one counter gives. */
export function uuidCounter(prefix: string): () => string {
  let sequence = 0;
  return () => numberedUuid(prefix, (sequence += 1));
}

// Event ids of every stream share one counter, so they are unique across aggregates.
const testEventIds = uuidCounter('00000000-0000-4000-8000-');

export interface EventStream {
  readonly aggregateId: string;
  next<T extends EventType>(type: T, occurredAt: string, data: EventData<T>): EventOfType<T>;
}

/** One aggregate's events; `nextEventId` gives their ids (a history with ids of its own passes its counter). */
export function eventStream(aggregateId: string, nextEventId: () => string = testEventIds): EventStream {
  let version = 0;
  return {
    aggregateId,
    next(type, occurredAt, data) {
      version += 1;
      const eventId = nextEventId();
      return { eventId, type, schemaVersion: 1, occurredAt, aggregateId, aggregateVersion: version, data } as DomainEvent as EventOfType<
        typeof type
      >;
    },
  };
}

/** A fresh lower-case uuid. */
export const uuid: () => string = uuidCounter('10000000-0000-4000-8000-');
