import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, KafkaMessage } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECTOR_MEMORY_FLAGS } from '../../projector/memoryBound.ts';
import { projectionCollections } from '../../projector/write/projectionCollections.ts';
import { readMeta } from '../../services/mongo/index.ts';
import { freePorts } from '../faults/support/freePort.ts';
import { exampleEvent } from '../support/exampleEvents.ts';
import { testServers } from '../support/isolation.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { waitFor } from '../support/waitFor.ts';
import { draftWith, hostileEvents, NEAR_LIMIT_BYTES, pickedTexts } from './hostileEvents.ts';
import { scriptText } from './hostileStrings.ts';
import { sampleRss } from './processRss.ts';

// Issue 24: whatever an event holds, the projector as `npm start` launches it (projector/main.ts
// with the heap cap) goes on: it dead-letters what is invalid, folds the rest within bounded
// cost, stays ready, and every later event on every partition becomes visible. Before the fix,
// one description of 20,000 '>' stopped its consumer for good and no sentinel ever appeared.

const PARTITIONS = 6;
/** The resident memory every projector launch is held under (projector/memoryBound.ts). */
const RSS_BOUND_MB = 512;

interface Outgoing {
  key: string;
  value: Buffer | string | null;
  partition?: number;
}

const json = (event: unknown, partition?: number): Outgoing => ({
  key: String((event as { aggregateId: unknown }).aggregateId),
  value: JSON.stringify(event),
  ...(partition === undefined ? {} : { partition }),
});

function competition(fields: { descriptionFormatted?: string; name?: string } = {}): Record<string, unknown> {
  const base = exampleEvent('competition.drafted') as unknown as Record<string, unknown>;
  return draftWith({ ...base, eventId: randomUUID(), aggregateId: randomUUID() }, fields);
}

/** Messages no schema would produce: broken bytes, deep JSON, and invalid values near and past the limits. */
function invalidMessages(): Outgoing[] {
  const sameKey = randomUUID();
  return [
    { key: randomUUID(), value: null },
    { key: randomUUID(), value: Buffer.from([0xff, 0xfe, 0x00, 0xc3]) },
    { key: randomUUID(), value: '\u0000{"type":"competition.drafted"}' },
    { key: randomUUID(), value: `${'['.repeat(200_000)}${']'.repeat(200_000)}` },
    { key: randomUUID(), value: JSON.stringify({ ...competition(), data: null }).replace('null', deepJson(50_000)) },
    // Three invalid values of 600 KB on one key: one chunk, more than one broker request of dead letters.
    ...[1, 2, 3].map((): Outgoing => ({ key: sameKey, value: `{"x":"${'y'.repeat(600_000)}"` })),
    // Accepted by the broker, too large to go to the dead-letter topic whole with its headers.
    { key: randomUUID(), value: 'z'.repeat(NEAR_LIMIT_BYTES + 30_000) },
  ];
}

/** `{"a":{"a":…"bottom"…}}`, written out: JSON.stringify itself overflows the stack on such a value. */
const deepJson = (depth: number): string => `${'{"a":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;

describe('the projector process under hostile events', () => {
  let h: Harness;
  let child: ChildProcess | undefined;
  let opsPort: number;

  beforeAll(async () => {
    h = await createHarness({ partitions: PARTITIONS, config: { zone: 'UTC', bufferPeriodDays: 30 } });
    [opsPort] = await freePorts(1);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
    }
    await h?.close();
  });

  it('dead-letters what is invalid, folds the rest, and applies every later event on every partition', async () => {
    const generated = hostileEvents(8, 2026).map((e) => json(e));
    const picked = pickedTexts().flatMap(({ text }) => [competition({ descriptionFormatted: text }), competition({ name: text })]);
    const nearLimit = competition({ descriptionFormatted: scriptText(325_000, 0x4e00, 20_000, 9) });
    const invalid = invalidMessages();
    const before = [...generated, ...picked.map((e) => json(e)), json(nearLimit), ...invalid];
    const after = hostileEvents(4, 7).map((e) => json(e));
    const sentinels = Array.from({ length: PARTITIONS }, (_, partition) => competition({ name: `sentinel ${partition}` }));

    const producer = h.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const send = async (messages: readonly Outgoing[]): Promise<void> => {
      // One message a request: several near the limit would pass it together.
      for (const message of messages) await producer.send({ topic: h.topic, acks: -1, messages: [message] });
    };
    const admin = h.kafka.admin();
    await admin.connect();
    try {
      await send(before);
      const { kafkaBrokers, mongoUrl } = testServers();
      // As npm start launches it: the heap cap, and the bootstrap of an empty read model from a
      // long log (here: the hostile half), then live consumption.
      child = spawn(process.execPath, [...PROJECTOR_MEMORY_FLAGS, 'projector/main.ts'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          LOG_LEVEL: 'warn',
          KAFKA_BROKERS: kafkaBrokers.join(','),
          KAFKA_TOPIC: h.topic,
          KAFKA_GROUP_ID: h.groupId,
          MONGO_URL: mongoUrl,
          MONGO_DB: h.mongo.db.databaseName,
          OPS_HOST: '127.0.0.1',
          PROJECTOR_OPS_PORT: String(opsPort),
          PROJECTOR_BOOTSTRAP_MIN_EVENTS: String(Math.floor(before.length / 2)),
        },
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
      child.stdout?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
      const rss = sampleRss(child.pid!);
      try {
        await waitFor(async () => expect(await fetchStatus(`http://127.0.0.1:${opsPort}/health/ready`), stderr).toBe(200), 180_000, 1_000);
        await send(after);
        await send(sentinels.flatMap((event, partition) => [json(event, partition), json(published(event), partition)]));

        const { generation } = await readMeta(h.mongo.db);
        const docs = h.mongo.db.collection(projectionCollections(generation).read.competitions);
        await waitFor(
          async () =>
            expect(await docs.countDocuments({ _id: { $in: sentinels.map((s) => String(s.aggregateId)) } } as object)).toBe(PARTITIONS),
          120_000,
          1_000,
        );
        expect(child.exitCode, stderr).toBeNull();
        expect(await fetchStatus(`http://127.0.0.1:${opsPort}/health/ready`)).toBe(200);
        expect(await fetchStatus(`http://127.0.0.1:${opsPort}/health/live`)).toBe(200);
        const states = h.mongo.db.collection(projectionCollections(generation).states.competition);
        const folded = await states.countDocuments({ _id: { $in: [...picked, nearLimit].map((e) => String(e.aggregateId)) } } as object);
        expect(folded).toBe(picked.length + 1);

        const letters = await readDeadLetters(h, admin);
        expect(letters.length).toBeGreaterThanOrEqual(invalid.length);
        const omitted = letters.filter((l) => l.headers?.['dlq-value-omitted']?.toString() === 'true');
        expect(omitted).toHaveLength(1);
        expect(JSON.parse(omitted[0]!.value!.toString())).toMatchObject({ topic: h.topic, bytes: expect.any(Number) as number });
        const picks = new Set(picked.map((e) => String(e.aggregateId)));
        expect(letters.filter((l) => picks.has(l.key?.toString() ?? ''))).toEqual([]);
        expect(rss.peakMb()).toBeLessThan(RSS_BOUND_MB);
        process.stdout.write(
          `[adversarial events] sent ${before.length + after.length} hostile messages (${invalid.length} invalid by construction, ${picked.length + 1} picked drafts), ` +
            `${letters.length} dead letters, peak RSS ${rss.peakMb().toFixed(0)} MB\n`,
        );
      } finally {
        rss.stop();
      }
    } finally {
      await admin.disconnect();
      await producer.disconnect();
    }
  }, 420_000);
});

function published(draft: Record<string, unknown>): Record<string, unknown> {
  return { ...exampleEvent('competition.published'), eventId: randomUUID(), aggregateId: draft.aggregateId, aggregateVersion: 2 };
}

async function fetchStatus(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 0;
  }
}

/** Every message of the dead-letter topic, read from its start. */
async function readDeadLetters(h: Harness, admin: Admin): Promise<KafkaMessage[]> {
  const offsets = await admin.fetchTopicOffsets(h.dlqTopic);
  const total = offsets.reduce((n, p) => n + Number(p.high) - Number(p.low), 0);
  const consumer: Consumer = h.kafka.consumer({ groupId: `${h.groupId}.reader`, maxBytesPerPartition: 4 * 1024 * 1024 });
  const seen: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [h.dlqTopic], fromBeginning: true });
    await consumer.run({ eachMessage: ({ message }) => Promise.resolve(void seen.push(message)) });
    await waitFor(() => Promise.resolve(expect(seen.length).toBe(total)), 60_000, 250);
  } finally {
    await consumer.disconnect();
  }
  return seen;
}
