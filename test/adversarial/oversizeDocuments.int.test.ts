import type { Admin, KafkaMessage, Producer } from 'kafkajs';
import { MongoNetworkError } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplyOutcome } from '../../projector/consume/applyChunk.ts';
import { liveGroupId } from '../../projector/consume/liveGroupId.ts';
import { runConsumer } from '../../projector/consume/runConsumer.ts';
import { createProjectorMetrics } from '../../projector/metrics/projectorMetrics.ts';
import { projectorReadiness } from '../../projector/projectorReadiness.ts';
import { runProjector, type RunningProjector } from '../../projector/runProjector.ts';
import { parsePrometheusText } from '../../projector/status/readProjectorStatus.ts';
import { stalledPartitionLines } from '../../projector/status/statusLines.ts';
import { projectionCollections } from '../../projector/write/projectionCollections.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { createRegistry } from '../../services/metrics/createRegistry.ts';
import { fetchCommittedOffsets } from '../../services/kafka/index.ts';
import { readMeta } from '../../services/mongo/index.ts';
import { DOCUMENT_BUDGETS } from '../../services/readModel/documentBudgets.ts';
import { exampleEvent } from '../support/exampleEvents.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { numberedUuid, uuidCounter } from '../support/testEvents.ts';
import { waitFor } from '../support/waitFor.ts';
import { readDeadLetters } from './readDeadLetters.ts';

// No document, whatever its layout, can stop a partition (decisions.md, "Hostile input": stored
// documents, a write the database refuses for a document's content, a partition that has not
// committed for 60 s). Before: a competition whose state passed 16 MB (entries naming many
// categories, valid by the contract) made the driver refuse the write ("Document is larger than
// the maximum size"), the projector retried the chunk for ever, every later event of the
// partition waited, and readiness said ready; the document, written beside the refused state,
// counted entries the state did not hold.

const NOW = new Date('2026-11-23T12:00:00Z');
const config = { zone: 'UTC', bufferPeriodDays: 30 };
const PARTITION = 1;
/**
 * Characters of each category's name (authored text, kept as sent; the broker takes the event as
 * one message): the competition's read document carries every category, so a few of them pass
 * its budget while the state (categories are records of their own) stays small.
 */
const NAME_CHARS = 900_000;
/** Enough categories to pass the read document's budget. */
const CATEGORIES = 10;

const eventIds = uuidCounter('00000000-0000-4000-8000-');

function competitionEvents(name: string, categories: number): DomainEvent[] {
  const id = eventIds().replace(/^0/, 'c');
  const drafted = exampleEvent('competition.drafted');
  const added = exampleEvent('competition.category_added');
  const events: DomainEvent[] = [
    { ...drafted, eventId: eventIds(), aggregateId: id, aggregateVersion: 1, data: { ...drafted.data, name } },
    { ...exampleEvent('competition.published'), eventId: eventIds(), aggregateId: id, aggregateVersion: 2 },
  ];
  for (let n = 0; n < categories; n++) {
    const category = {
      ...added.data.category,
      id: numberedUuid('ca000000-0000-4000-8000-', n),
      name: `${n} ${'x'.repeat(NAME_CHARS)}`,
    };
    events.push({ ...added, eventId: eventIds(), aggregateId: id, aggregateVersion: 3 + n, data: { category } });
  }
  return events;
}

/** Sends each message alone to `partition`, in order; returns each one's offset. */
async function sendTo(
  producer: Producer,
  topic: string,
  partition: number,
  values: readonly { key: string; value: string }[],
): Promise<string[]> {
  const offsets: string[] = [];
  for (const message of values) {
    const [sent] = await producer.send({ topic, acks: -1, messages: [{ ...message, partition }] });
    offsets.push(sent!.baseOffset!);
  }
  return offsets;
}

const asMessage = (event: DomainEvent): { key: string; value: string } => ({ key: event.aggregateId, value: JSON.stringify(event) });

const header = (letter: KafkaMessage, name: string): string | undefined => letter.headers?.[name]?.toString();

describe('documents past their budget and stalled partitions', () => {
  let h: Harness;
  let producer: Producer;
  let admin: Admin;

  beforeAll(async () => {
    h = await createHarness({ partitions: 2, config });
    producer = h.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    admin = h.kafka.admin();
    await admin.connect();
  });
  afterAll(async () => {
    await producer?.disconnect();
    await admin?.disconnect();
    await h?.close();
  });

  it('dead-letters the events that grow a competition past its budget, keeps its last good documents, and applies the events after them', async () => {
    const big = competitionEvents('too many long categories', CATEGORIES);
    const sentinel = competitionEvents('sentinel after the oversize competition', 0);
    const offsets = await sendTo(producer, h.topic, PARTITION, [...big, ...sentinel].map(asMessage));
    let projector: RunningProjector | undefined;
    try {
      projector = await runProjector({ ...h.context(NOW, { chunkSize: 50 }), clockSchedule: '0 0 1 1 *', generationPollMs: 60_000 });
      const running = projector;
      const { generation } = await readMeta(h.mongo.db);
      const names = projectionCollections(generation);
      const competitions = h.mongo.db.collection<{ _id: string; categories: unknown[] }>(names.read.competitions);
      // The partition commits past every event (a sentinel's document alone could be written by a chunk that then fails).
      const end = Number(offsets.at(-1)) + 1;
      await waitFor(
        async () => expect((await fetchCommittedOffsets(admin, liveGroupId(h.groupId, generation), h.topic)).get(PARTITION)).toBe(end),
        240_000,
        1_000,
      );
      expect(await competitions.findOne({ _id: sentinel[0]!.aggregateId })).not.toBeNull();

      // The document holds the categories that fit its budget, the state is the one it was made from; each later event is a dead letter of its own offset.
      const kept = (await competitions.findOne({ _id: big[0]!.aggregateId }))!.categories.length;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(CATEGORIES);
      const state = await h.mongo.db
        .collection<{ _id: string; version: number }>(names.states.competition)
        .findOne({ _id: big[0]!.aggregateId });
      expect(state!.version).toBe(2 + kept);
      const refused = offsets.slice(2 + kept, 2 + CATEGORIES);
      const letters = await readDeadLetters(h.kafka, h.dlqTopic, `${h.groupId}.letters`, refused.length);
      expect(letters.map((l) => [header(l, 'dlq-source-partition'), header(l, 'dlq-source-offset')])).toEqual(
        refused.map((offset) => [String(PARTITION), offset]),
      );
      for (const letter of letters) {
        expect(header(letter, 'dlq-reason')).toMatch(
          new RegExp(
            `^the fold failed on this event: DocumentOverBudget: the read document \\S+/${big[0]!.aggregateId} would be \\d+ bytes, past its budget of ${DOCUMENT_BUDGETS.read} bytes$`,
          ),
        );
      }
      const readiness = projectorReadiness({ mongo: h.mongo, admin, projector: running, partitions: h.metrics.partitions });
      expect(await readiness()).toEqual({ ready: true, checks: { mongo: true, kafka: true, consumer: true, partitions: true } });
    } finally {
      await projector?.stop();
    }
  }, 300_000);

  it('names a partition whose chunk keeps failing on the database in readiness and status, and clears once it commits', async () => {
    const registry = createRegistry('test', false);
    const metrics = createProjectorMetrics(registry, Date.now, { stallAfterMs: 2_000 });
    let databaseAway = true;
    const waiting = competitionEvents('waits for the database', 0);
    const [stuckAt] = await sendTo(producer, h.topic, 0, waiting.map(asMessage));
    const consumer = await runConsumer({
      kafka: h.kafka,
      topic: h.topic,
      dlqTopic: h.dlqTopic,
      groupId: `${h.groupId}.stall`,
      metrics,
      logger: h.logger,
      clock: () => NOW,
      sink: {
        // The database refuses the writes of partition 0's competition only: partition 1 goes on.
        apply: (events) =>
          databaseAway && events.some((e) => e.aggregateId === waiting[0]!.aggregateId)
            ? Promise.reject(new MongoNetworkError('connection refused by the test'))
            : Promise.resolve(events.map((): ApplyOutcome => 'applied')),
      },
    });
    try {
      const readiness = projectorReadiness({ mongo: h.mongo, admin, projector: consumer, partitions: metrics.partitions });
      const stalled = await waitFor(
        async () => {
          const answer = await readiness();
          expect(answer.checks['partition 0']).toBe(false);
          return answer;
        },
        60_000,
        250,
      );
      expect(stalled.ready).toBe(false);
      expect(stalled.checks.partitions).toBe(false);
      expect(stalled.checks['partition 1']).toBeUndefined();
      const lines = stalledPartitionLines(parsePrometheusText(await registry.metrics()));
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^ {2}partition 0 STALLED: not committed for \\d+ s at offset ${stuckAt}; last error MongoNetworkError: connection refused by the test$`,
          ),
        ),
      ]);
      expect(await registry.metrics()).toMatch(/^projector_partition_stalled\{partition="0",service="test"\} 1$/m);

      databaseAway = false;
      await waitFor(async () => expect(await readiness()).toMatchObject({ ready: true, checks: { partitions: true } }), 60_000, 250);
      expect(stalledPartitionLines(parsePrometheusText(await registry.metrics()))).toEqual(['  stalled partitions: none']);
    } finally {
      await consumer.stop();
    }
  }, 120_000);

  it('dead-letters a storm of small invalid messages of one key without a send past the broker limit', async () => {
    const key = numberedUuid('bbbbbbbb-0000-4000-8000-', 1);
    const storm = Array.from({ length: 8_000 }, (_, i) => ({ key, value: `{"x":${i}`, partition: PARTITION }));
    const dlqBefore = Number((await admin.fetchTopicOffsets(h.dlqTopic))[0]!.high);
    const first = await producer.send({ topic: h.topic, acks: -1, messages: storm.slice(0, 4_000) });
    await producer.send({ topic: h.topic, acks: -1, messages: storm.slice(4_000) });
    const from = BigInt(first[0]!.baseOffset!);
    const consumer = await runConsumer({
      kafka: h.kafka,
      topic: h.topic,
      dlqTopic: h.dlqTopic,
      groupId: `${h.groupId}.storm`,
      metrics: createProjectorMetrics(createRegistry('test', false)),
      logger: h.logger,
      clock: () => NOW,
      chunkSize: 10_000,
      sink: { apply: (events) => Promise.resolve(events.map((): ApplyOutcome => 'applied')) },
    });
    try {
      const letters = await readDeadLetters(h.kafka, h.dlqTopic, `${h.groupId}.storm-letters`, dlqBefore + storm.length, 180_000);
      const stormLetters = letters.slice(dlqBefore);
      expect(stormLetters.map((l) => header(l, 'dlq-source-offset'))).toEqual(storm.map((_, i) => String(from + BigInt(i))));
      expect(new Set(stormLetters.map((l) => header(l, 'dlq-source-partition')))).toEqual(new Set([String(PARTITION)]));
    } finally {
      await consumer.stop();
    }
  }, 240_000);
});
