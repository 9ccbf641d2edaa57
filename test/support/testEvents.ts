import type { DomainEvent, EventData, EventOfType, EventType } from '../../services/events/index.ts';

// Given-events builder for the unit tests: versions run 1, 2, 3... per aggregate and event ids
// are unique, as the write side produces them.

let sequence = 0;

export interface EventStream {
  readonly aggregateId: string;
  next<T extends EventType>(type: T, occurredAt: string, data: EventData<T>): EventOfType<T>;
}

export function eventStream(aggregateId: string): EventStream {
  let version = 0;
  return {
    aggregateId,
    next(type, occurredAt, data) {
      version += 1;
      sequence += 1;
      const eventId = `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`;
      return { eventId, type, schemaVersion: 1, occurredAt, aggregateId, aggregateVersion: version, data } as DomainEvent as EventOfType<
        typeof type
      >;
    },
  };
}

let idSequence = 0;
/** A fresh lower-case uuid. */
export function uuid(): string {
  idSequence += 1;
  return `10000000-0000-4000-8000-${idSequence.toString(16).padStart(12, '0')}`;
}
