// What one event costs as its aggregate's history grows: node bench/perEventCost.ts [--parts
// entries,links,locations] [--sizes 10,1000,100000] [--link-sizes 10,1000,10000]
// [--location-sizes 10,1000,10000] [--events 1000] [--batch 50] [--categories 20]
// (`npm run bench:per-event`), with
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
// Part `links`: a dancer with that many prior link changes (joins and leaves of clubs, coach
// assignments, each with a new subject), then `--events` more. Part `locations`: a club with that
// many locations, then `--events` location changes, additions and removals.
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
import type { StateKind } from '../projector/write/projectionStore.ts';
import { category, clubLocation, dancerGrant, LV, person } from '../test/api/eventBuilders.ts';
import { exampleEvent } from '../test/support/exampleEvents.ts';
import { eventStream, numberedUuid, uuid, type EventStream } from '../test/support/testEvents.ts';

const { values: args } = parseArgs({
  options: {
    parts: { type: 'string', default: 'entries,links,locations' },
    sizes: { type: 'string', default: '10,1000,100000' },
    'link-sizes': { type: 'string', default: '10,1000,10000' },
    'location-sizes': { type: 'string', default: '10,1000,10000' },
    events: { type: 'string', default: '1000' },
    batch: { type: 'string', default: '50' },
    categories: { type: 'string', default: '20' },
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

/** A dancer's link changes: joins and leaves of clubs, assignments and unassignments of coaches, each with a new subject. */
interface Dancer {
  s: EventStream;
  changes: number;
  at: number;
}

function dancerOpening(): { dancer: Dancer; events: DomainEvent[] } {
  const s = eventStream(uuid());
  return {
    dancer: { s, changes: 0, at: 10 },
    events: [
      s.next('person.registered', at(0), person('Anna', 'Ozola', LV)),
      s.next('person.role_granted', at(1), dancerGrant(at(1), '2030-01-01')),
    ],
  };
}

function linkChanges(d: Dancer, n: number): DomainEvent[] {
  return Array.from({ length: n }, () => {
    const i = d.changes++;
    const subject = numberedUuid('b0000000-0000-4000-8000-', Math.floor(i / 2) + 1);
    const since = at(d.at).slice(0, 10);
    if (Math.floor(i / 2) % 2 === 1)
      return i % 2 === 0
        ? d.s.next('person.coach_assigned', at(d.at++), { coachId: subject, since })
        : d.s.next('person.coach_unassigned', at(d.at++), { coachId: subject });
    return i % 2 === 0
      ? d.s.next('person.club_joined', at(d.at++), { role: 'dancer', clubId: subject, since })
      : d.s.next('person.club_left', at(d.at++), { role: 'dancer', clubId: subject });
  });
}

/** A club's locations: added, then changed, added and removed. */
interface Club {
  s: EventStream;
  locations: number;
  at: number;
}

function clubOpening(): { club: Club; events: DomainEvent[] } {
  const s = eventStream(uuid());
  const registered = s.next('club.registered', at(0), {
    name: 'DSC Aurora',
    logo: null,
    foundedOn: null,
    approvedAt: null,
    contacts: { phone: null, email: null, website: null, instagram: null, facebook: null },
    locations: [clubLocation(1, 'main', 'Rīga', LV)],
  });
  return { club: { s, locations: 1, at: 10 }, events: [registered] };
}

const locationId = (n: number): string => clubLocation(n, 'branch', 'Rīga', LV).id;

function locationsAdded(c: Club, n: number): DomainEvent[] {
  return Array.from({ length: n }, () => {
    c.locations += 1;
    return c.s.next('club.location_added', at(c.at++), { location: clubLocation(c.locations, 'branch', `City ${c.locations % 50}`, LV) });
  });
}

/** Half changes of earlier locations, a third of the rest additions, the others removals. */
function locationEvents(c: Club, n: number): DomainEvent[] {
  const before = c.locations;
  return Array.from({ length: n }, (_, i) => {
    if (i % 2 === 0) {
      const changed = 2 + ((i * 7919) % (before - 1));
      return c.s.next('club.location_changed', at(c.at++), { locationId: locationId(changed), changes: { address: `street ${i}` } });
    }
    if (i % 6 === 1) return locationsAdded(c, 1)[0]!;
    return c.s.next('club.location_removed', at(c.at++), { locationId: locationId(before + 1 - ((i * 31) % (before - 1))) });
  });
}

/** One part's seed (not measured) and measured events, and the aggregate whose stored state is sized. */
interface Scenario {
  kind: StateKind;
  aggregateId: string;
  seed: DomainEvent[];
  measured: DomainEvent[];
}

type Part = 'entries' | 'links' | 'locations';

function scenario(part: Part, size: number): Scenario {
  const events = Number(args.events);
  switch (part) {
    case 'entries': {
      const { competition, events: opened } = opening(Number(args.categories));
      const seed = [...opened, ...submissions(competition, size)];
      return { kind: 'competition', aggregateId: competition.s.aggregateId, seed, measured: measured(competition, events) };
    }
    case 'links': {
      const { dancer, events: opened } = dancerOpening();
      const seed = [...opened, ...linkChanges(dancer, size)];
      return { kind: 'person', aggregateId: dancer.s.aggregateId, seed, measured: linkChanges(dancer, events) };
    }
    case 'locations': {
      const { club, events: opened } = clubOpening();
      const seed = [...opened, ...locationsAdded(club, size - 1)];
      return { kind: 'club', aggregateId: club.s.aggregateId, seed, measured: locationEvents(club, events) };
    }
  }
}

async function project(store: ProjectionStore, events: readonly DomainEvent[], batch: number): Promise<void> {
  for (let i = 0; i < events.length; i += batch) await projectEvents(events.slice(i, i + batch), store, config, NOW);
}

interface Row {
  size: number;
  usPerEvent: number;
  written: number;
  read: number;
  stateBytes: number;
}

/**
 * Seeds one aggregate of `size` into the store (not measured), then times the part's events in
 * batches, counting the traffic the store's hooks record; `stateBytes` sizes the aggregate's
 * stored state as the store keeps it.
 */
async function seedThenTime(
  store: ProjectionStore,
  part: Part,
  size: number,
  stateBytes: (kind: StateKind, id: string) => Promise<number>,
): Promise<Row> {
  const { kind, aggregateId, seed, measured: timed } = scenario(part, size);
  await project(store, seed, Number(args['seed-batch']));
  traffic.on = true;
  traffic.written = 0;
  traffic.read = 0;
  const started = performance.now();
  await project(store, timed, Number(args.batch));
  const elapsed = performance.now() - started;
  traffic.on = false;
  return {
    size,
    usPerEvent: (elapsed * 1000) / timed.length,
    written: traffic.written / timed.length,
    read: traffic.read / timed.length,
    stateBytes: await stateBytes(kind, aggregateId),
  };
}

async function measure(part: Part, size: number): Promise<Row> {
  const db = client.db(`bench_per_event_${process.pid}_${part}_${size}`);
  await db.dropDatabase();
  try {
    const { generation } = await ensureMeta(db);
    const names = projectionCollections(generation);
    await ensureReadModelIndexes(db, names);
    return await seedThenTime(new MongoProjectionStore(db, generation, { live: true }), part, size, async (kind, id) => {
      const state = await db.collection<{ _id: string }>(names.states[kind]).findOne({ _id: id });
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
        // writeDerived(listing, documents) names its listing first.
        const written = name === 'writeDerived' ? params[1] : params[0];
        if (traffic.on && (name.startsWith('write') || name === 'bumpRevisions')) traffic.written += jsonBytes(written);
        if (traffic.on && (name.startsWith('load') || name.startsWith('find'))) traffic.read += jsonBytes(result);
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

async function measureInMemory(part: Part, size: number): Promise<Row> {
  const store = countingMemoryStore();
  return seedThenTime(store, part, size, async (kind, id) => {
    const state = (await store.loadStates(kind, [id])).get(id);
    return state ? jsonBytes(state) : 0;
  });
}

const PARTS: Record<Part, { sizes: string; unit: string }> = {
  entries: { sizes: args.sizes, unit: 'entries' },
  links: { sizes: args['link-sizes'], unit: 'prior link changes' },
  locations: { sizes: args['location-sizes'], unit: 'locations' },
};

for (const part of args.parts.split(',') as Part[]) {
  const rows = [];
  for (const size of PARTS[part].sizes.split(',').map(Number)) {
    const row = inMemory ? await measureInMemory(part, size) : await measure(part, size);
    rows.push(row);
    process.stdout.write(
      `${part}: ${row.size.toLocaleString('en')} ${PARTS[part].unit}: ${row.usPerEvent.toFixed(0)} µs/event, ${row.written.toFixed(0)} B written/event, ` +
        `${row.read.toFixed(0)} B read/event (stored state ${row.stateBytes.toLocaleString('en')} B; ${inMemory ? 'memory store' : url})\n`,
    );
  }
  const first = rows[0]!;
  const last = rows.at(-1)!;
  process.stdout.write(
    `${part}: largest/smallest: ${(last.usPerEvent / first.usPerEvent).toFixed(2)}x time, ${(last.written / first.written).toFixed(2)}x bytes written, ` +
      `${(last.read / first.read).toFixed(2)}x bytes read (goal: within 2x)\n`,
  );
}
if (!inMemory) await client.close();
