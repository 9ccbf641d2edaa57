import type { KafkaMessage, Producer } from 'kafkajs';
import { MongoNetworkError } from 'mongodb';
import pino from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../services/events/index.ts';
import { exampleEvents } from '../../test/support/exampleEvents.ts';
import { createProjectorMetrics } from '../metrics/projectorMetrics.ts';
import { chunkApplier, type ApplyOutcome, type EventSink } from './applyChunk.ts';
import type { DeadLetter } from './deadLetter.ts';

// The consumer's chunk step with a sink that fails on chosen events, as a fold that throws on an
// event's content does, or as the database does.

const message = (event: DomainEvent, offset: number): KafkaMessage =>
  ({
    key: Buffer.from(event.aggregateId),
    value: Buffer.from(JSON.stringify(event)),
    offset: String(offset),
    timestamp: '0',
    headers: {},
  }) as KafkaMessage;

function rig(fails: (event: DomainEvent) => Error | null) {
  const applied: string[] = [];
  const sends: DeadLetter[][] = [];
  const sink: EventSink = {
    apply: (events) => {
      for (const event of events) {
        const error = fails(event);
        if (error) return Promise.reject(error);
      }
      applied.push(...events.map((e) => e.eventId));
      return Promise.resolve(events.map((): ApplyOutcome => 'applied'));
    },
  };
  const producer = {
    send: ({ messages }: { messages: DeadLetter[] }) => (sends.push(messages), Promise.resolve([])),
  } as unknown as Producer;
  const metrics = createProjectorMetrics(new Registry());
  const apply = chunkApplier({
    topic: 'events',
    dlqTopic: 'events.dlq',
    sink,
    producer,
    metrics,
    logger: pino({ level: 'silent' }),
    clock: () => new Date('2026-01-01T00:00:00Z'),
  });
  return { apply, applied, sends, metrics };
}

const events = exampleEvents.slice(0, 40);
const chunk = events.map(message);

describe('chunkApplier: poison isolation', () => {
  it('dead-letters the event whose fold fails, with the error as its reason, and applies every other in order', async () => {
    const poison = new Set([events[3]!.eventId, events[29]!.eventId]);
    const { apply, applied, sends, metrics } = rig((e) =>
      poison.has(e.eventId) ? new RangeError('Maximum call stack size exceeded') : null,
    );
    await apply(chunk, 2);
    expect(applied.filter((id, i) => applied.indexOf(id) === i)).toEqual(events.map((e) => e.eventId).filter((id) => !poison.has(id)));
    const letters = sends.flat();
    expect(letters.map((l) => l.headers['dlq-source-offset'])).toEqual(['3', '29']);
    expect(letters[0]!.headers['dlq-reason']).toBe('the fold failed on this event: RangeError: Maximum call stack size exceeded');
    expect(letters[0]!.value).toEqual(chunk[3]!.value);
    expect((await metrics.eventsDeadLettered.get()).values.reduce((n, v) => n + v.value, 0)).toBe(2);
  });

  it('keeps the retry path for a database error: nothing is dead-lettered and the chunk fails', async () => {
    const { apply, sends } = rig((e) => (e.eventId === events[5]!.eventId ? new MongoNetworkError('connection reset') : null));
    await expect(apply(chunk, 0)).rejects.toBeInstanceOf(MongoNetworkError);
    expect(sends.flat()).toEqual([]);
  });
});
