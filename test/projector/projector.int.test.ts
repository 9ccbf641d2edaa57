import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory } from '../../generator/createHistory.ts';
import { runConsumer } from '../../projector/consume/runConsumer.ts';
import { rebuildReadModel } from '../../projector/rebuild/rebuildReadModel.ts';
import { runProjector, type RunningProjector } from '../../projector/runProjector.ts';
import { readProjectorStatus } from '../../projector/status/readProjectorStatus.ts';
import { refreshLagFromKafka } from '../../projector/metrics/refreshLagFromKafka.ts';
import { ensureReadModelIndexes } from '../../services/readModel/indexPlan.ts';
import { MongoProjectionStore } from '../../projector/write/mongoProjectionStore.ts';
import { projectionSink } from '../../projector/write/projectionSink.ts';
import type { ProjectionStore } from '../../projector/write/projectionStore.ts';
import { type DomainEvent } from '../../services/events/index.ts';
import { exampleEvent, exampleEvents } from '../support/exampleEvents.ts';
import { readMeta } from '../../services/mongo/index.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { readModelSnapshot, referenceSnapshot } from '../support/readModelSnapshot.ts';
import { waitFor } from '../support/waitFor.ts';

const NOW = new Date('2026-11-23T12:00:00Z');
const config = { zone: 'Europe/Riga', bufferPeriodDays: 30 };

function startProjector(h: Harness): Promise<RunningProjector> {
  return runProjector({
    ...h.context(NOW, { chunkSize: 50 }),
    clockSchedule: '*/1 * * * * *',
    generationPollMs: 300,
  });
}

describe('projector on real Kafka and MongoDB-wire servers', () => {
  let h: Harness;
  let projector: RunningProjector;
  const liveEvents: DomainEvent[] = [...exampleEvents];

  beforeAll(async () => {
    h = await createHarness({ partitions: 3, config });
    projector = await startProjector(h);
  });
  afterAll(async () => {
    await projector?.stop();
    await h?.close();
  });

  it('folds produced events into the documents the reference model gives', async () => {
    await h.produce(exampleEvents);
    const expected = referenceSnapshot(exampleEvents, config, NOW);
    await waitFor(async () => expect(await readModelSnapshot(h.mongo.db, 1)).toEqual(expected));
    expect(projector.isRunning()).toBe(true);
    expect(expected.competitions.length).toBeGreaterThan(0);
  });

  it('dead-letters a poison message with its reason and bytes, and applies the next valid event', async () => {
    const notJson = Buffer.from('{"eventId": oops');
    const badSchema = { ...exampleEvent('competition.drafted'), eventId: 'not-a-uuid' };
    const next = exampleEvent('person.details_changed');
    const followUp = {
      ...next,
      eventId: '7d8c9a52-1a0f-4b5e-9c1d-3b1a2e4f5a60',
      aggregateVersion: 1000,
      occurredAt: '2026-11-20T10:00:00Z',
      data: { surnameEn: 'Afterpoison' },
    } as DomainEvent;
    await h.produce([
      { key: followUp.aggregateId, value: notJson },
      { key: followUp.aggregateId, value: JSON.stringify(badSchema) },
    ]);
    await h.produce([followUp]);
    liveEvents.push(followUp);
    await waitFor(async () => {
      const doc = await h.mongo.db.collection('dancers_g1').findOne({ _id: followUp.aggregateId as never });
      expect(doc?.surnameEn).toBe('Afterpoison');
    });

    const seen: { value: string; reason: string }[] = [];
    const consumer = h.kafka.consumer({ groupId: `${h.groupId}-dlq-reader` });
    await consumer.connect();
    await consumer.subscribe({ topic: h.dlqTopic, fromBeginning: true });
    await consumer.run({
      eachMessage: ({ message }) => {
        seen.push({ value: message.value!.toString(), reason: String(message.headers?.['dlq-reason']) });
        return Promise.resolve();
      },
    });
    await waitFor(() => Promise.resolve(expect(seen).toHaveLength(2)));
    await consumer.disconnect();
    expect(seen[0]!.value).toBe(notJson.toString());
    expect(seen[0]!.reason).toMatch(/JSON/i);
    expect(seen[1]!.value).toBe(JSON.stringify(badSchema));
    expect(seen[1]!.reason).toMatch(/eventId/);
    expect((await h.metrics.eventsDeadLettered.get()).values.reduce((n, v) => n + v.value, 0)).toBe(2);

    // What `npm run status` prints: Kafka's own view of the live group.
    const admin = h.kafka.admin();
    await admin.connect();
    try {
      const status = await waitFor(async () => {
        const s = await readProjectorStatus({ admin, db: h.mongo.db, topic: h.topic, dlqTopic: h.dlqTopic, groupId: h.groupId });
        expect(s.totalLag).toBe(0);
        return s;
      });
      expect(status).toMatchObject({ generation: 1, deadLetters: 2, topicExists: true });
      expect(status.partitions.reduce((n, p) => n + p.end, 0)).toBe(exampleEvents.length + 3);
      // Caught up, the lag in seconds is 0 however long ago the last event occurred: it is the
      // age of the oldest unapplied event, not of the last applied one's occurredAt.
      expect(Date.parse(exampleEvents.at(-1)!.occurredAt)).toBeLessThan(NOW.getTime() - 86_400_000);
      expect((await h.metrics.lagSeconds.get()).values).toEqual([expect.objectContaining({ value: 0 })]);

      // The lag gauge is refreshed from Kafka even when no batch arrives.
      h.metrics.consumerLagMessages.reset();
      const stop = refreshLagFromKafka({
        admin,
        db: h.mongo.db,
        topic: h.topic,
        dlqTopic: h.dlqTopic,
        groupId: h.groupId,
        metrics: h.metrics,
        logger: h.logger,
        everyMs: 100,
      });
      try {
        await waitFor(
          async () => {
            const lags = (await h.metrics.consumerLagMessages.get()).values;
            expect(lags.map((v) => v.labels.partition).sort()).toEqual(['0', '1', '2']);
            expect(lags.every((v) => v.value === 0)).toBe(true);
          },
          10_000,
          100,
        );
      } finally {
        stop();
      }
    } finally {
      await admin.disconnect();
    }
  });

  it('rebuilds a new generation equal to the live one while the API could keep reading, and the projector follows the switch', async () => {
    const live = await readModelSnapshot(h.mongo.db, 1);
    const result = await rebuildReadModel({ ...h.context(NOW), dropAfterMs: 0 });
    expect(result).toMatchObject({ from: 1, to: 2 });
    expect((await readMeta(h.mongo.db)).generation).toBe(2);
    expect(await readModelSnapshot(h.mongo.db, 2)).toEqual(live);
    expect(await readModelSnapshot(h.mongo.db, 1)).toEqual({ competitions: [], dancers: [], judges: [], coaches: [], clubs: [] });
    await waitFor(() => Promise.resolve(expect(projector.generation()).toBe(2)));

    // The live projector continues in the new generation from where the rebuild stopped.
    const later = {
      ...exampleEvent('person.details_changed'),
      eventId: '7d8c9a52-1a0f-4b5e-9c1d-3b1a2e4f5a61',
      aggregateVersion: 1001,
      occurredAt: '2026-11-21T10:00:00Z',
      data: { nameEn: 'Rebuilt' },
    } as DomainEvent;
    await h.produce([later]);
    liveEvents.push(later);
    await waitFor(async () => expect(await readModelSnapshot(h.mongo.db, 2)).toEqual(referenceSnapshot(liveEvents, config, NOW)));
  });
});

describe('a generated history on real servers', () => {
  let h: Harness;
  const history = [...createHistory({ seed: 11, events: 2000, now: NOW })];
  const expected = referenceSnapshot(history, config, NOW);

  beforeAll(async () => {
    h = await createHarness({ partitions: 6, config });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('gives the same documents with duplicates, shuffled partitions and a crash mid-batch', async () => {
    // Every fifth event delivered twice; the topic's 6 partitions interleave aggregates freely.
    await h.produce(history.flatMap((e, i) => (i % 5 === 0 ? [e, e] : [e])));
    const store = new MongoProjectionStore(h.mongo.db, 1);
    await ensureReadModelIndexes(h.mongo.db, store.names);

    // The first consumer dies after its 4th batch has written states and documents but before
    // the derived writes and the offset commit: the next consumer re-reads that batch.
    let batches = 0;
    let crashed!: () => void;
    const crash = new Promise<void>((resolve) => (crashed = resolve));
    const crashing: ProjectionStore = Object.create(store) as ProjectionStore;
    crashing.bumpRevisions = async (keys) => {
      batches++;
      if (batches === 4) {
        crashed();
        throw new Error('simulated crash between writes');
      }
      return store.bumpRevisions(keys);
    };
    const options = {
      kafka: h.kafka,
      topic: h.topic,
      dlqTopic: h.dlqTopic,
      groupId: h.groupId,
      metrics: h.metrics,
      logger: h.logger,
      clock: () => NOW,
      chunkSize: 200,
    };
    const first = await runConsumer({ ...options, sink: projectionSink(crashing, config, () => NOW) });
    await crash;
    await first.stop();

    const second = await runConsumer({ ...options, sink: projectionSink(store, config, () => NOW) });
    try {
      await waitFor(
        async () => {
          const { sweepDue } = await import('../../projector/clock/sweepDue.ts');
          await sweepDue(store, config, NOW);
          expect(await readModelSnapshot(h.mongo.db, 1)).toEqual(expected);
        },
        280_000,
        2000,
      );
    } finally {
      await second.stop();
    }
    expect(expected.clubs.some((c) => (c.dancersCount as number) > 0)).toBe(true);
    // Every fifth event was sent twice; the crashed batch's replay may add more.
    expect((await h.metrics.eventsDuplicate.get()).values.reduce((n, v) => n + v.value, 0)).toBeGreaterThanOrEqual(
      Math.ceil(history.length / 5),
    );
  }, 300_000);
});
