import { spawn, type ChildProcess } from 'node:child_process';
import fc from 'fast-check';
import type { Admin, Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveGroupId } from '../../projector/consume/liveGroupId.ts';
import { PROJECTOR_MEMORY_FLAGS } from '../../projector/memoryBound.ts';
import { projectionCollections } from '../../projector/write/projectionCollections.ts';
import type { DomainEvent } from '../../services/events/index.ts';
import { fetchCommittedOffsets } from '../../services/kafka/index.ts';
import { readMeta } from '../../services/mongo/index.ts';
import { freePorts } from '../faults/support/freePort.ts';
import { exampleEvent } from '../support/exampleEvents.ts';
import { testServers } from '../support/isolation.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { recountDeltaCounts } from '../support/recountDeltaCounts.ts';
import { uuidCounter } from '../support/testEvents.ts';
import { waitFor } from '../support/waitFor.ts';
import * as grown from './growingAggregates.ts';
import { sampleRss } from './processRss.ts';
import { readDeadLetters } from './readDeadLetters.ts';

// Aggregates grown by size, through the projector as `npm start` launches it (the heap cap), live:
// a competition of thousands of entries and hundreds of categories, a club of thousands of
// locations, a person of thousands of link changes, exceptions by the thousand, names of one
// event's worth in five scripts, an event of tens of thousands of keys, a storm of
// invalid messages on one key. Then a sentinel on every partition: every sentinel is visible,
// every partition commits to its end, every grown aggregate has applied every event, the
// process stays under its memory bound, every dead letter is the one expected (partition,
// offset, reason), and every count kept by delta equals its recount.

const PARTITIONS = 6;
/** The resident memory every projector launch is held under (projector/memoryBound.ts). */
const RSS_BOUND_MB = 512;
const NOW = new Date();
/** Messages per produce request when they are small; one a request past SMALL_BYTES. */
const PER_REQUEST = 50;
const SMALL_BYTES = 50_000;

/** Sizes drawn between explicit bounds, each a real size (fast-check's own `size` would draw a dozen). */
const SIZES = grown.grownSizes({
  entries: [5_000, 10_000],
  categories: [300, 600],
  locations: [5_000, 10_000],
  links: [5_000, 10_000],
  personExceptions: [2_000, 4_000],
  clubExceptions: [2_000, 4_000],
  keys: [20_000, 50_000],
  storm: [2_000, 4_000],
});

interface Outgoing {
  key: string;
  value: string;
  /** Set for messages that must be dead-lettered: the reason their letter gives. */
  reason?: RegExp;
}

const asOutgoing = (event: DomainEvent): Outgoing => ({ key: event.aggregateId, value: JSON.stringify(event) });

/** Sends each partition's messages in order (partitions side by side, small messages a few per request); returns each one's offset. */
async function sendAll(producer: Producer, topic: string, byPartition: readonly Outgoing[][]): Promise<string[][]> {
  return Promise.all(
    byPartition.map(async (messages, partition) => {
      const offsets: string[] = [];
      for (let i = 0; i < messages.length;) {
        let end = i + 1;
        while (
          end < messages.length &&
          end - i < PER_REQUEST &&
          messages[end]!.value.length < SMALL_BYTES &&
          messages[i]!.value.length < SMALL_BYTES
        )
          end++;
        const batch = messages.slice(i, end).map(({ key, value }) => ({ key, value, partition }));
        const [sent] = await producer.send({ topic, acks: -1, messages: batch });
        for (let k = 0; k < batch.length; k++) offsets.push(String(BigInt(sent!.baseOffset!) + BigInt(k)));
        i = end;
      }
      return offsets;
    }),
  );
}

const sentinelIds = uuidCounter('5e5e5e5e-0000-4000-8000-');

function sentinel(partition: number): Outgoing[] {
  const id = sentinelIds();
  const drafted = exampleEvent('competition.drafted');
  return [
    { ...drafted, eventId: sentinelIds(), aggregateId: id, aggregateVersion: 1, data: { ...drafted.data, name: `sentinel ${partition}` } },
    { ...exampleEvent('competition.published'), eventId: sentinelIds(), aggregateId: id, aggregateVersion: 2 },
  ].map((e) => asOutgoing(e as DomainEvent));
}

/** Entries live after a competition's events: submitted and not withdrawn. */
function liveEntries(events: readonly DomainEvent[]): number {
  const live = new Set<string>();
  for (const e of events) {
    if (e.type === 'competition.entry_submitted') live.add(e.data.entryId);
    if (e.type === 'competition.entry_withdrawn') live.delete(e.data.entryId);
  }
  return live.size;
}

describe('the projector process under aggregates grown by size', () => {
  let h: Harness;
  let child: ChildProcess | undefined;
  let producer: Producer;
  let admin: Admin;
  let opsPort: number;
  let output = '';

  beforeAll(async () => {
    h = await createHarness({ partitions: PARTITIONS, config: { zone: 'UTC', bufferPeriodDays: 30 } });
    [opsPort] = await freePorts(1);
    producer = h.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    admin = h.kafka.admin();
    await admin.connect();
    const { kafkaBrokers, mongoUrl } = testServers();
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
      },
    });
    const keep = (chunk: Buffer): void => void (output = (output + chunk.toString()).slice(-20_000));
    child.stderr?.on('data', keep);
    child.stdout?.on('data', keep);
    await waitFor(async () => expect(await fetchStatus(`http://127.0.0.1:${opsPort}/health/ready`), output).toBe(200), 120_000, 500);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await producer?.disconnect();
    await admin?.disconnect();
    await h?.close();
  });

  it('applies every event of every grown aggregate, dead-letters exactly the invalid messages, and every partition reaches its sentinel', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(SIZES, async (sizes) => {
        run++;
        const aggregates = [
          grown.competitionOfEntries(run, sizes.entries, sizes.categories),
          grown.competitionOfCategories(run, sizes.categories),
          grown.clubOfLocations(run, sizes.locations),
          grown.personOfLinks(run, sizes.links),
          grown.personOfExceptions(run, sizes.personExceptions),
          grown.clubOfExceptions(run, sizes.clubExceptions),
          // Names as long as one event carries, in every script (no size to draw: the longest is the hostile one).
          ...grown.SCRIPT_NAMES.flatMap((script, i) => grown.longNames(run * 8 + i, script, grown.longestName(script))),
          grown.manyKeys(run, sizes.keys),
        ];
        const unexpected = grown.manyUnexpectedKeys(run, sizes.keys);
        const storm = grown.errorStorm(run, sizes.storm);
        const byPartition: Outgoing[][] = Array.from({ length: PARTITIONS }, () => []);
        aggregates.forEach((g, i) => byPartition[i % PARTITIONS]!.push(...g.events.map(asOutgoing)));
        byPartition[1]!.push({ ...unexpected, reason: /^data: unexpected field "k0"; data: unexpected field "k1"; .* and \d+ more$/ });
        byPartition[2]!.push(...storm.messages.map(({ value, reason }) => ({ key: storm.key, value, reason })));
        byPartition.forEach((messages, partition) => messages.push(...sentinel(partition)));

        const rss = sampleRss(child!.pid!);
        const began = performance.now();
        try {
          const offsets = await sendAll(producer, h.topic, byPartition);
          const sentMs = performance.now() - began;
          const { generation } = await readMeta(h.mongo.db);
          const names = projectionCollections(generation);
          const group = liveGroupId(h.groupId, generation);
          // Every partition commits past its sentinel: nothing waits behind a grown aggregate.
          await waitFor(
            async () => {
              const committed = await fetchCommittedOffsets(admin, group, h.topic);
              expect(
                offsets.map((o, partition) => committed.get(partition) ?? 0),
                output,
              ).toEqual(offsets.map((o) => Number(o.at(-1)) + 1));
            },
            300_000,
            1_000,
          );
          const caughtUpMs = performance.now() - began;
          expect(child!.exitCode, output).toBeNull();
          expect(await fetchStatus(`http://127.0.0.1:${opsPort}/health/ready`)).toBe(200);
          const sentinels = byPartition.map((messages) => JSON.parse(messages.at(-1)!.value) as DomainEvent);
          const visible = await h.mongo.db
            .collection(names.read.competitions)
            .countDocuments({ _id: { $in: sentinels.map((s) => s.aggregateId) }, visible: true } as object);
          expect(visible).toBe(PARTITIONS);

          // Every grown aggregate applied every one of its events.
          for (const g of aggregates) {
            const kind = g.events[0]!.type.split('.')[0] as 'competition' | 'person' | 'club';
            const state = await h.mongo.db.collection<{ _id: string; version: number }>(names.states[kind]).findOne({ _id: g.aggregateId });
            expect([g.label, state?.version]).toEqual([g.label, g.events.length]);
          }
          const [entries, categories, locations] = aggregates;
          const competitions = h.mongo.db.collection<{ _id: string; registration: { entriesCount: number }; categories: unknown[] }>(
            names.read.competitions,
          );
          expect((await competitions.findOne({ _id: entries!.aggregateId }))?.registration.entriesCount).toBe(liveEntries(entries!.events));
          expect((await competitions.findOne({ _id: categories!.aggregateId }))?.categories).toHaveLength(sizes.categories);
          const club = await h.mongo.db
            .collection<{ _id: string; locations: unknown[] }>(names.read.clubs)
            .findOne({ _id: locations!.aggregateId });
          expect(club?.locations).toHaveLength(sizes.locations);

          // Each dead letter is the one expected of its message: its partition, its offset, its reason.
          const expected = byPartition.flatMap((messages, partition) =>
            messages.flatMap((m, i) => (m.reason ? [{ at: `${partition}:${offsets[partition]![i]}`, reason: m.reason }] : [])),
          );
          const dlqEnd = (await admin.fetchTopicOffsets(h.dlqTopic)).reduce((n, p) => n + Number(p.high), 0);
          const letters = await readDeadLetters(h.kafka, h.dlqTopic, `${h.groupId}.letters${run}`, dlqEnd, 120_000);
          const got = new Map(
            letters.map((l) => [`${l.headers?.['dlq-source-partition']?.toString()}:${l.headers?.['dlq-source-offset']?.toString()}`, l]),
          );
          expect([...got.keys()].sort()).toEqual(expected.map((e) => e.at).sort());
          for (const { at, reason } of expected) expect(got.get(at)!.headers?.['dlq-reason']?.toString()).toMatch(reason);

          const recount = await recountDeltaCounts(h.mongo.db, generation, NOW);
          expect(recount.miscounts).toEqual([]);
          expect(rss.peakMb()).toBeLessThan(RSS_BOUND_MB);
          process.stdout.write(
            `[grown aggregates] ${JSON.stringify(sizes)}: ${offsets.flat().length} messages sent in ${Math.round(sentMs)} ms, ` +
              `all partitions committed after ${Math.round(caughtUpMs)} ms, ${letters.length} dead letters, peak RSS ${rss.peakMb().toFixed(0)} MB\n`,
          );
        } finally {
          rss.stop();
        }
      }),
      // Each run sends tens of thousands of events through a real process: one run, and no
      // shrinking (a failure names its sizes; shrinking would rerun it many times).
      { numRuns: 1, seed: 37, endOnFailure: true },
    );
  }, 480_000);
});

async function fetchStatus(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 0;
  }
}
