import { KafkaJSNonRetriableError } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventSink } from '../../projector/consume/applyChunk.ts';
import { runConsumer } from '../../projector/consume/runConsumer.ts';
import { fetchCommittedOffsets } from '../../services/kafka/index.ts';
import { exampleEvents } from '../support/exampleEvents.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { waitFor } from '../support/waitFor.ts';

const NOW = new Date('2026-11-23T12:00:00Z');

// kafkajs stops a consumer for good on a non-retriable error (restart: false in its CRASH event):
// the process stayed up, not ready, and no later event was ever applied (issue 24). The
// projector starts a new member with backoff instead.
describe('a consumer that kafkajs stops for good', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ partitions: 2, config: { zone: 'UTC', bufferPeriodDays: 30 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is started again: every event is applied and committed, and the restart is counted', async () => {
    const events = exampleEvents.slice(0, 30);
    await h.produce(events);
    const seen = new Set<string>();
    let crashes = 0;
    const sink: EventSink = {
      apply(batch) {
        // A broker-side error that kafkajs does not retry, once: the member crashes for good.
        if (crashes++ === 0) return Promise.reject(new KafkaJSNonRetriableError('the broker refused for good'));
        for (const e of batch) seen.add(e.eventId);
        return Promise.resolve(batch.map(() => 'applied'));
      },
    };
    const consumer = await runConsumer({
      kafka: h.kafka,
      topic: h.topic,
      dlqTopic: h.dlqTopic,
      groupId: h.groupId,
      sink,
      metrics: h.metrics,
      logger: h.logger,
      clock: () => NOW,
      sessionTimeoutMs: 6_000,
    });
    const admin = h.kafka.admin();
    await admin.connect();
    try {
      await waitFor(
        async () => {
          const committed = await fetchCommittedOffsets(admin, h.groupId, h.topic);
          expect([...committed.values()].reduce((a, b) => a + b, 0)).toBe(events.length);
        },
        50_000,
        500,
      );
      expect(seen).toEqual(new Set(events.map((e) => e.eventId)));
      expect((await h.metrics.consumerRestarts.get()).values[0]?.value).toBeGreaterThanOrEqual(1);
      expect(consumer.isRunning()).toBe(true);
      expect(consumer.stoppedForMs()).toBeNull();
    } finally {
      await admin.disconnect();
      await consumer.stop();
    }
  }, 70_000);
});
