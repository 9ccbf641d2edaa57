// What one entry event costs as its competition grows: node bench/perEventCost.ts [--sizes
// 10,1000,100000] [--events 1000] [--batch 50] [--categories 20] (`npm run bench:per-event`), with
// MONGO_URL naming the database server (the shared SecantusDB or a MongoDB; nothing is started),
// or --store memory: the in-process memory store of the unit tests, whose bytes are the JSON of
// what each write and load carries (our own cost, without a database).
// For each size, a fresh database gets one published competition with that many entries (seeded
// in large batches, not measured), then `--events` entry events (new entries, changes and
// withdrawals of earlier ones) go through the live batch (projectEvents, the real
// MongoProjectionStore, every read-model index) in batches of `--batch`. Prints µs per event and,
// from the driver's command monitoring, the bytes the batches sent in writes and read back in
// finds, per event. The goal: flat (within 2x) from 10 to 100,000 entries. Each entry names one
// category, so that a layout keeping a competition's entries in one document stays under
// MongoDB's 16 MB up to 100,000 entries and can be measured beside this one.
// A second part does the same for competitions of `--category-sizes` categories (10 and 1,000)
// with `--category-entries` entries each: the goal, again, flat within 2x.
import { parseArgs } from 'node:util';
import { BSON, MongoClient } from 'mongodb';
import type { DomainEvent } from '../services/events/index.ts';
import { ensureMeta } from '../services/mongo/index.ts';
import { ensureReadModelIndexes } from '../services/readModel/indexPlan.ts';
import { MongoProjectionStore } from '../projector/write/mongoProjectionStore.ts';
import { projectionCollections } from '../projector/write/projectionCollections.ts';
import { projectEvents } from '../projector/write/projectEvents.ts';
import type { ProjectionStore } from '../projector/write/projectionStore.ts';
import { MemoryProjectionStore } from '../test/support/memoryProjectionStore.ts';
import { category } from '../test/api/eventBuilders.ts';
import { exampleEvent } from '../test/support/exampleEvents.ts';
import { eventStream, numberedUuid, uuid, type EventStream } from '../test/support/testEvents.ts';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10,1000,100000' },
    events: { type: 'string', default: '1000' },
    batch: { type: 'string', default: '50' },
    categories: { type: 'string', default: '20' },
    'category-sizes': { type: 'string', default: '10,1000' },
    'category-entries': { type: 'string', default: '1000' },
    'seed-batch': { type: 'string', default: '5000' },
    store: { type: 'string', default: 'mongo' },
  },
});
const inMemory = args.store === 'memory';
const url = process.env.MONGO_URL ?? '';
if (!inMemory && !url) throw new Error('MONGO_URL names the database server to measure against (or give --store memory)');
const config = { zone: 'UTC', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
const at = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

/** Bytes of write commands sent and of find replies received, while `on`. */
const traffic = { on: false, written: 0, read: 0 };
const client = new MongoClient(inMemory ? 'mongodb://unused' : url, { monitorCommands: true });
client.on('commandStarted', (e) => {
  if (traffic.on && (e.commandName === 'insert' || e.commandName === 'update' || e.commandName === 'delete'))
    traffic.written += BSON.calculateObjectSize(e.command);
});
client.on('commandSucceeded', (e) => {
  if (traffic.on && (e.commandName === 'find' || e.commandName === 'getMore'))
    traffic.read += BSON.calculateObjectSize(e.reply as BSON.Document);
});
if (!inMemory) await client.connect();

interface Competition {
  s: EventStream;
  categoryIds: string[];
  entryIds: string[];
  at: number;
}

function opening(categories: number): { competition: Competition; events: DomainEvent[] } {
  const s = eventStream(uuid());
  const categoryIds = Array.from({ length: categories }, (_, i) => numberedUuid('ca000000-0000-4000-8000-', i + 1));
  const events: DomainEvent[] = [
    s.next('competition.drafted', at(0), exampleEvent('competition.drafted').data),
    s.next('competition.published', at(1), {}),
    ...categoryIds.map((id, i) => s.next('competition.category_added', at(2 + i), { category: { ...category(i + 1), id } })),
  ];
  return { competition: { s, categoryIds, entryIds: [], at: 10_000 }, events };
}

function submissions(c: Competition, n: number): DomainEvent[] {
  return Array.from({ length: n }, () => {
    const entryId = numberedUuid('e0000000-0000-4000-8000-', c.entryIds.length + 1);
    c.entryIds.push(entryId);
    const categoryIds = [c.categoryIds[c.entryIds.length % c.categoryIds.length]!];
    return c.s.next('competition.entry_submitted', at(c.at++), { entryId, categoryIds });
  });
}

/** Half new entries; the rest changes and withdrawals of entries submitted before. */
function measured(c: Competition, n: number): DomainEvent[] {
  const events: DomainEvent[] = [];
  const before = c.entryIds.length;
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) events.push(...submissions(c, 1));
    else {
      const entryId = c.entryIds[(i * 7919) % before]!;
      events.push(
        i % 6 === 5
          ? c.s.next('competition.entry_withdrawn', at(c.at++), { entryId })
          : c.s.next('competition.entry_changed', at(c.at++), { entryId, categoryIds: [c.categoryIds[i % c.categoryIds.length]!] }),
      );
    }
  }
  return events;
}

async function project(store: ProjectionStore, events: readonly DomainEvent[], batch: number): Promise<void> {
  for (let i = 0; i < events.length; i += batch) await projectEvents(events.slice(i, i + batch), store, config, NOW);
}

interface Row {
  size: number;
  categories: number;
  usPerEvent: number;
  written: number;
  read: number;
  stateBytes: number;
}

/**
 * Seeds one competition of `size` entries into the store (not measured), then times the entry
 * events in batches, counting the traffic the store's hooks record; `stateBytes` sizes the
 * competition's stored state as the store keeps it.
 */
async function seedThenTime(
  store: ProjectionStore,
  size: number,
  categories: number,
  stateBytes: (competitionId: string) => Promise<number>,
): Promise<Row> {
  const { competition, events } = opening(categories);
  await project(store, [...events, ...submissions(competition, size)], Number(args['seed-batch']));
  const timed = measured(competition, Number(args.events));
  traffic.on = true;
  traffic.written = 0;
  traffic.read = 0;
  const started = performance.now();
  await project(store, timed, Number(args.batch));
  const elapsed = performance.now() - started;
  traffic.on = false;
  return {
    size,
    categories,
    usPerEvent: (elapsed * 1000) / timed.length,
    written: traffic.written / timed.length,
    read: traffic.read / timed.length,
    stateBytes: await stateBytes(competition.s.aggregateId),
  };
}

async function measure(size: number, categories: number): Promise<Row> {
  const db = client.db(`bench_per_event_${process.pid}_${size}_${categories}`);
  await db.dropDatabase();
  try {
    const { generation } = await ensureMeta(db);
    const names = projectionCollections(generation);
    await ensureReadModelIndexes(db, names);
    return await seedThenTime(new MongoProjectionStore(db, generation, { live: true }), size, categories, async () => {
      const state = await db.collection(names.states.competition).findOne({});
      return state ? BSON.calculateObjectSize(state) : 0;
    });
  } finally {
    await db.dropDatabase();
  }
}

/** The memory store, counting the JSON bytes its writes carry and its loads return. */
function countingMemoryStore(): ProjectionStore {
  const store = new MemoryProjectionStore();
  return new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return async (...params: unknown[]) => {
        const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, params);
        if (traffic.on && (name.startsWith('write') || name === 'bumpRevisions')) traffic.written += jsonBytes(params[0]);
        if (traffic.on && name.startsWith('load')) traffic.read += jsonBytes(result);
        return result;
      };
    },
  });
}

/** JSON bytes of what a store call carries: maps and arrays by their items; a fold's entries (never stored with the state) left out. */
function jsonBytes(value: unknown): number {
  if (value instanceof Map) return [...value.values()].reduce((n: number, v) => n + jsonBytes(v), 0);
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + jsonBytes(v), 0);
  if (value !== null && typeof value === 'object') {
    const fields = Object.values(value);
    if (fields.length > 0 && fields.every((v) => v instanceof Map)) return fields.reduce((n: number, v) => n + jsonBytes(v), 0);
    const { entries, ...rest } = value as { entries?: unknown };
    return JSON.stringify(Array.isArray(entries) ? value : rest).length;
  }
  return JSON.stringify(value ?? null).length;
}

async function measureInMemory(size: number, categories: number): Promise<Row> {
  const store = countingMemoryStore();
  return seedThenTime(store, size, categories, async (competitionId) => {
    const state = (await store.loadStates('competition', [competitionId])).get(competitionId);
    return state ? jsonBytes(state) : 0;
  });
}

/** Measures each (entries, categories) pair in turn, prints a row each and the ratio of the last to the first. */
async function part(pairs: ReadonlyArray<readonly [number, number]>): Promise<void> {
  const rows: Row[] = [];
  for (const [size, categories] of pairs) {
    const row = inMemory ? await measureInMemory(size, categories) : await measure(size, categories);
    rows.push(row);
    process.stdout.write(
      `${row.size.toLocaleString('en')} entries, ${row.categories.toLocaleString('en')} categories: ${row.usPerEvent.toFixed(0)} µs/event, ` +
        `${row.written.toFixed(0)} B written/event, ${row.read.toFixed(0)} B read/event ` +
        `(competition state ${row.stateBytes.toLocaleString('en')} B; ${inMemory ? 'memory store' : url})\n`,
    );
  }
  const first = rows[0]!;
  const last = rows.at(-1)!;
  process.stdout.write(
    `largest/smallest: ${(last.usPerEvent / first.usPerEvent).toFixed(2)}x time, ${(last.written / first.written).toFixed(2)}x bytes written, ` +
      `${(last.read / first.read).toFixed(2)}x bytes read (goal: within 2x)\n`,
  );
}

await part(args.sizes.split(',').map((size) => [Number(size), Number(args.categories)] as const));
await part(args['category-sizes'].split(',').map((categories) => [Number(args['category-entries']), Number(categories)] as const));
if (!inMemory) await client.close();
