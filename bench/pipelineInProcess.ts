// The projector pipeline without Kafka or a database: node bench/pipelineInProcess.ts
// [--events 200000] [--chunk 10000] [--seed 1] [--profile out.cpuprofile] [--mongo URL [--writer-indexes-only]]
// (`npm run bench:pipeline`). Generates a history, encodes each event as the bytes a Kafka
// message would carry, splits them over 6 partitions by key, then decodes, validates and folds
// them chunk by chunk, partition after partition, into the counting in-memory store. Prints the
// cost per event of decoding and validating and of projectBatch, and the writes per event. It
// takes seconds where bench/projector.ts takes minutes, so it is the loop for profiling our own
// code; the Kafka figures (and the ratios the goals are stated in) come from bench/projector.ts.
// With --mongo, the same loop writes into a fresh database there (the real MongoProjectionStore)
// and prints where a chunk's time goes, per store operation.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { createHistory } from '../generator/index.ts';
import { DEFAULT_CHUNK_SIZE, REPLAY_CHUNK_SIZE } from '../projector/consume/runConsumer.ts';
import { sweepDue } from '../projector/clock/sweepDue.ts';
import { MongoClient } from 'mongodb';
import { MemoryProjectionStore } from '../test/support/memoryProjectionStore.ts';
import { MongoProjectionStore } from '../projector/write/mongoProjectionStore.ts';
import { projectionCollections } from '../projector/write/projectionCollections.ts';
import type { ProjectionStore } from '../projector/write/projectionStore.ts';
import { ensureMeta } from '../services/mongo/index.ts';
import {
  ensureListingIndexes,
  ensureReadModelIndexes,
  ensureWriterIndexes,
  readCollectionIndexes,
  type ReadListing,
} from '../services/readModel/indexPlan.ts';
import { timedStore } from './timedStore.ts';
import { projectionSink, replaySink } from '../projector/write/projectionSink.ts';
import { parseEventBytes, type DomainEvent } from '../services/events/index.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '200000' },
    // Default: the projector's own chunk size (a rebuild's with --writer-indexes-only).
    chunk: { type: 'string' },
    seed: { type: 'string', default: '1' },
    profile: { type: 'string' },
    mongo: { type: 'string' },
    'writer-indexes-only': { type: 'boolean' },
  },
});
const NOW = new Date('2026-11-23T12:00:00Z');
const PARTITIONS = 6;
const chunkSize = Number(args.chunk ?? (args['writer-indexes-only'] ? REPLAY_CHUNK_SIZE : DEFAULT_CHUNK_SIZE));

const partitions: Buffer[][] = Array.from({ length: PARTITIONS }, () => []);
for (const event of createHistory({ seed: Number(args.seed), events: Number(args.events), now: NOW })) {
  // Any stable key hash keeps each aggregate's events in order on one partition, as Kafka does.
  partitions[Number.parseInt(event.aggregateId.slice(-6), 16) % PARTITIONS]!.push(Buffer.from(JSON.stringify(event)));
}
const total = partitions.reduce((sum, p) => sum + p.length, 0);
const memory = new MemoryProjectionStore({ clone: false, keepDocuments: false });
let mongo: { client: MongoClient; dbName: string; generation: number } | undefined;
let store: ProjectionStore = memory;
const timings = new Map<string, { calls: number; ms: number; items: number }>();
if (args.mongo) {
  const client = await MongoClient.connect(args.mongo);
  const dbName = `bench_pipeline_${Date.now().toString(36)}`;
  const db = client.db(dbName);
  const { generation } = await ensureMeta(db);
  // --writer-indexes-only: as a rebuild replays (the API's indexes are built after it).
  await (args['writer-indexes-only'] ? ensureWriterIndexes : ensureReadModelIndexes)(db, projectionCollections(generation));
  mongo = { client, dbName, generation };
  store = timedStore(new MongoProjectionStore(db, generation), timings);
}
const config = { zone: 'UTC', bufferPeriodDays: 30 };
// As a rebuild replays: coaches and clubs derived once at the end (see replaySink).
const replay = args['writer-indexes-only'] ? replaySink(store, config, () => NOW) : undefined;
const sink = replay ?? projectionSink(store, config, () => NOW);

const session = new Session();
if (args.profile) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
let decodeMs = 0;
let foldMs = 0;
for (let start = 0; start < Math.max(...partitions.map((p) => p.length)); start += chunkSize) {
  for (const partition of partitions) {
    const chunk = partition.slice(start, start + chunkSize);
    if (chunk.length === 0) continue;
    const began = performance.now();
    const events: DomainEvent[] = [];
    for (const bytes of chunk) {
      const parsed = parseEventBytes(bytes);
      if (parsed.ok) events.push(parsed.event);
    }
    const decoded = performance.now();
    await sink.apply(events);
    foldMs += performance.now() - decoded;
    decodeMs += decoded - began;
  }
}
let deriveMs = 0;
let derived = { coaches: 0, clubs: 0 };
if (replay) {
  const began = performance.now();
  derived = await replay.deriveDeferred();
  deriveMs = performance.now() - began;
}
if (args.profile) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(args.profile, JSON.stringify(profile));
}
const us = (ms: number): string => ((ms * 1000) / total).toFixed(1);
if (mongo) {
  const writes = [...timings.values()].reduce((n, t) => n + t.items, 0);
  process.stdout.write(
    `${total} events in chunks of ${chunkSize} into ${args.mongo}: ${Math.round(total / ((decodeMs + foldMs + deriveMs) / 1000))} events/s; ${us(decodeMs)} µs decode + ${us(foldMs)} µs projectBatch per event` +
      (replay ? ` + the deferred coaches and clubs (${derived.coaches} and ${derived.clubs}) ${(deriveMs / 1000).toFixed(1)} s\n` : '\n'),
  );
  for (const [name, t] of [...timings].sort((a, b) => b[1].ms - a[1].ms)) {
    process.stdout.write(
      `  ${name.padEnd(16)} ${String(t.calls).padStart(6)} calls ${String(t.items).padStart(9)} items ${(t.ms / 1000).toFixed(1).padStart(7)} s  ${us(t.ms).padStart(6)} µs/event  ${t.items ? ((t.ms * 1000) / t.items).toFixed(1) : '-'} µs/item\n`,
    );
  }
  process.stdout.write(`  (items of writes and loads: ${writes}; ${(writes / total).toFixed(2)} per event)\n`);
  if (args['writer-indexes-only']) {
    // What a rebuild does next: build the API's indexes on the full collections. One collection
    // at a time, so each one's share shows (the stand-in builds one index at a time anyway).
    const db = mongo.client.db(mongo.dbName);
    const names = projectionCollections(mongo.generation);
    let indexMs = 0;
    for (const listing of Object.keys(names.read) as ReadListing[]) {
      const collection = names.read[listing];
      const began = performance.now();
      await ensureListingIndexes(db, listing, collection);
      const ms = performance.now() - began;
      indexMs += ms;
      const docs = await db.collection(collection).estimatedDocumentCount();
      process.stdout.write(
        `  then the API's indexes on ${listing.padEnd(12)} ${String(docs).padStart(7)} documents × ${readCollectionIndexes(listing).length} indexes: ${(ms / 1000).toFixed(1)} s\n`,
      );
    }
    const allMs = decodeMs + foldMs + deriveMs + indexMs;
    process.stdout.write(
      `  replay and indexes: ${(allMs / 1000).toFixed(1)} s = ${Math.round(total / (allMs / 1000))} events/s (indexes ${(indexMs / 1000).toFixed(1)} s)\n`,
    );
    // What a rebuild does next, twice: the first reads after a long index build have stalled.
    for (const run of ['first', 'second']) {
      const began = performance.now();
      await sweepDue(store, config, NOW);
      process.stdout.write(`  then the clock sweep (${run}): ${((performance.now() - began) / 1000).toFixed(1)} s\n`);
    }
  }
  await mongo.client.db(mongo.dbName).dropDatabase();
  await mongo.client.close();
  process.exit(0);
}
process.stdout.write(
  `${total} events in chunks of ${chunkSize}: ${us(decodeMs + foldMs)} µs per event = decode and validate ${us(decodeMs)} + projectBatch ${us(foldMs)}; ` +
    `${(memory.totalWrites / total).toFixed(2)} writes per event; documents written twice within one batch: ${memory.rewritesInBatch}; ` +
    `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (with the generated history)\n`,
);
