import type { Static } from '@sinclair/typebox';
import { clubEventData } from './clubEvents.ts';
import { competitionEventData } from './competitionEvents.ts';
import { eventEnvelope } from './envelope.ts';
import { personEventData } from './personEvents.ts';

/** Event type name → schema of its `data`. */
export const eventDataSchemas = { ...competitionEventData, ...personEventData, ...clubEventData };

export type EventType = keyof typeof eventDataSchemas;
export type EventData<T extends EventType> = Static<(typeof eventDataSchemas)[T]>;

export const EVENT_TYPES: readonly EventType[] = Object.freeze(Object.keys(eventDataSchemas) as EventType[]);

export type EventSchema<T extends EventType> = ReturnType<typeof eventEnvelope<T, (typeof eventDataSchemas)[T]>>;
type EventSchemas = { [T in EventType]: EventSchema<T> };

/** Event type name → schema of the whole event (envelope and data), as published in json/. */
export const eventSchemas = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, eventEnvelope(type, eventDataSchemas[type])]),
) as EventSchemas;

/** Any valid event: a union discriminated by `type`. */
export type DomainEvent = { [T in EventType]: Static<EventSchema<T>> }[EventType];
// Extract keeps a generic EventOfType<T> assignable to DomainEvent.
export type EventOfType<T extends EventType> = Extract<DomainEvent, { type: T }>;

export type Aggregate = 'competition' | 'person' | 'club';
export const aggregateOf = (type: EventType): Aggregate => {
  if (type in competitionEventData) return 'competition';
  if (type in personEventData) return 'person';
  return 'club';
};

export const isEventType = (type: string): type is EventType => Object.hasOwn(eventDataSchemas, type);
