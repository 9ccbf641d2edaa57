import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventSink } from '../../projector/consume/applyChunk.ts';
import { runConsumer } from '../../projector/consume/runConsumer.ts';
import { exampleEvents } from '../support/exampleEvents.ts';
import { fetchCommittedOffsets } from '../../services/kafka/index.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { waitFor } from '../support/waitFor.ts';

const NOW = new Date('2026-11-23T12:00:00Z');

// A chunk can outlast the consumer's session (a slow database, a long replay chunk). kafkajs only
// heartbeats when asked, so without heartbeats during the chunk the broker evicts the member, the
// offset commit fails and the chunk is folded again by the next owner.
describe('a chunk that takes longer than the consumer session', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ partitions: 1, config: { zone: 'UTC', bufferPeriodDays: 30 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps the member in its group: every event is folded once and its offset committed', async () => {
    const events = exampleEvents.slice(0, 10);
    await h.produce(events);
    const seen: string[] = [];
    const slow: EventSink = {
      async apply(batch) {
        // The first chunk takes 1.6 sessions.
        if (seen.length === 0) await sleep(9_600);
        seen.push(...batch.map((e) => e.eventId));
        return batch.map(() => 'applied');
      },
    };
    const consumer = await runConsumer({
      kafka: h.kafka,
      topic: h.topic,
      dlqTopic: h.dlqTopic,
      groupId: h.groupId,
      sink: slow,
      metrics: h.metrics,
      logger: h.logger,
      clock: () => NOW,
      chunkSize: 100,
      sessionTimeoutMs: 6_000,
    });
    const admin = h.kafka.admin();
    await admin.connect();
    try {
      await waitFor(
        async () => {
          expect((await fetchCommittedOffsets(admin, h.groupId, h.topic)).get(0)).toBe(events.length);
        },
        40_000,
        500,
      );
      // Long enough for an evicted member's re-fetch to have folded the chunk a second time.
      await sleep(2_000);
      expect(seen).toEqual(events.map((e) => e.eventId));
    } finally {
      await admin.disconnect();
      await consumer.stop();
    }
  }, 60_000);
});
