// The fold of hostile events, in process: node bench/hostileFold.ts [--per-type 20] [--seed 2026]
// [--baseline-events 50000] [--history-seed 1] (`npm run bench:hostile-fold`). Every adversarial
// event of test/adversarial (the schema-generated ones with hostile text, each picked hostile text
// as a draft's description and as its name, the near-limit draft) goes one at a time through the
// consumer's decode and validation and the production sink (projectBatch: fold, documents with
// their description and search keys, cascade) into the in-memory store; beside it the ordinary
// generated history the same way. Each set runs in a child process of its own with the
// projector's heap flags, so each peak RSS and heap is its own. Prints, per set: events, those
// the consumer would dead-letter (invalid, or a fold that throws), p50/p99 and the slowest
// event's fold and derivation with its label (by wall time and by CPU time, the process's own,
// which other work on a shared machine moves less), the slowest decode, and the peak RSS and heap.
// Each child first folds a few thousand ordinary events it does not count, so that neither set
// pays for the code's first runs. With --mongo URL each set goes into a fresh database there
// with every index of the live read model (the real MongoProjectionStore, each event its own
// durable batch), so the times include what the database does with each event's documents;
// give a smaller --baseline-events then.
import { spawnSync } from 'node:child_process';
import { MongoClient } from 'mongodb';
import { parseArgs } from 'node:util';
import { createHistory } from '../generator/index.ts';
import { PROJECTOR_MEMORY_FLAGS } from '../projector/memoryBound.ts';
import { MongoProjectionStore } from '../projector/write/mongoProjectionStore.ts';
import { projectionCollections } from '../projector/write/projectionCollections.ts';
import { projectionSink } from '../projector/write/projectionSink.ts';
import { ensureMeta } from '../services/mongo/index.ts';
import { ensureReadModelIndexes } from '../services/readModel/indexPlan.ts';
import { parseEventBytes } from '../services/events/index.ts';
import { MemoryProjectionStore } from '../test/support/memoryProjectionStore.ts';
import { mb, ms, percentile, table } from './soakFigures.ts';
import { hostileCatalogue } from './soakHostileEvents.ts';
import { resultsRecorder, RESULTS_FILE } from './saveResults.ts';

const { values: args } = parseArgs({
  options: {
    'per-type': { type: 'string', default: '20' },
    seed: { type: 'string', default: '2026' },
    'baseline-events': { type: 'string', default: '50000' },
    'history-seed': { type: 'string', default: '1' },
    'warm-up-events': { type: 'string', default: '3000' },
    mongo: { type: 'string' },
    set: { type: 'string' },
    // Where the figures of this run are kept (its block replaced); `none` writes nothing.
    results: { type: 'string', default: RESULTS_FILE },
  },
});
const record = resultsRecorder('bench:hostile-fold', args.results);
const NOW = new Date('2026-11-23T12:00:00Z');

interface SetFigures {
  events: number;
  invalid: number;
  poison: number;
  p50: number;
  p99: number;
  /** By wall time, then by CPU time. */
  slowest: Timed[];
  slowestCpu: Timed[];
  p99Cpu: number;
  slowestDecode: { ms: number; label: string };
  totalMs: number;
  peakRss: number;
  peakHeap: number;
}

interface Timed {
  ms: number;
  cpuMs: number;
  label: string;
}

interface Labelled {
  label: string;
  bytes: Buffer;
}

function* messagesOf(set: string): Generator<Labelled> {
  if (set === 'hostile') {
    for (const m of hostileCatalogue(Number(args['per-type']), Number(args.seed)))
      yield { label: m.label, bytes: Buffer.from(m.value as string) };
    return;
  }
  const history = createHistory({ seed: Number(args['history-seed']), events: Number(args['baseline-events']), now: NOW });
  for (const event of history) yield { label: event.type, bytes: Buffer.from(JSON.stringify(event)) };
}

const CONFIG = { zone: 'UTC', bufferPeriodDays: 30 };
// Read documents' bodies dropped: the projector holds none in memory, the database does.
const newSink = (): ReturnType<typeof projectionSink> =>
  projectionSink(new MemoryProjectionStore({ clone: false, keepDocuments: false }), CONFIG, () => NOW);

async function warmUp(): Promise<void> {
  const sink = newSink();
  const history = createHistory({ seed: Number(args['history-seed']) + 1, events: Number(args['warm-up-events']), now: NOW });
  for (const event of history) await sink.apply([event]);
}

/** A fresh database with the live read model's indexes, and the production store over it. */
async function mongoSink(url: string, set: string): Promise<{ sink: ReturnType<typeof projectionSink>; drop(): Promise<void> }> {
  const client = await MongoClient.connect(url);
  const db = client.db(`bench_hostile_fold_${set}_${Date.now().toString(36)}`);
  const { generation } = await ensureMeta(db);
  await ensureReadModelIndexes(db, projectionCollections(generation));
  return {
    sink: projectionSink(new MongoProjectionStore(db, generation), CONFIG, () => NOW),
    drop: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
}

async function runSet(set: string): Promise<SetFigures> {
  await warmUp();
  // The ordinary history folds into one store, as its events build on each other. Each
  // adversarial event is an aggregate of its own: in memory it folds into an empty store, since
  // one that kept every huge state would measure this store's memory (the projector's are in the
  // database); in the database they all go into one.
  const mongo = args.mongo ? await mongoSink(args.mongo, set) : undefined;
  let sink = mongo?.sink ?? newSink();
  const times: Timed[] = [];
  let slowestDecode = { ms: 0, label: '-' };
  let invalid = 0;
  let poison = 0;
  let peakHeap = 0;
  const began = performance.now();
  for (const { label, bytes } of messagesOf(set)) {
    if (set === 'hostile' && !mongo) sink = newSink();
    const start = performance.now();
    const parsed = parseEventBytes(bytes);
    const decoded = performance.now();
    const cpu = process.cpuUsage();
    if (decoded - start > slowestDecode.ms) slowestDecode = { ms: decoded - start, label };
    if (!parsed.ok) {
      invalid += 1;
      continue;
    }
    try {
      await sink.apply([parsed.event]);
    } catch {
      // The consumer would dead-letter it (applyChunk's poison isolation); its time still counts.
      poison += 1;
    }
    const used = process.cpuUsage(cpu);
    times.push({ ms: performance.now() - decoded, cpuMs: (used.user + used.system) / 1000, label });
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }
  const totalMs = performance.now() - began;
  await mongo?.drop();
  return {
    events: times.length + invalid,
    invalid,
    poison,
    p50: percentile(
      times.map((t) => t.ms),
      50,
    ),
    p99: percentile(
      times.map((t) => t.ms),
      99,
    ),
    p99Cpu: percentile(
      times.map((t) => t.cpuMs),
      99,
    ),
    slowest: [...times].sort((a, b) => b.ms - a.ms).slice(0, 3),
    slowestCpu: [...times].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 3),
    slowestDecode,
    totalMs,
    peakRss: process.resourceUsage().maxRSS * 1024,
    peakHeap,
  };
}

if (args.set) {
  process.stdout.write(`${JSON.stringify(await runSet(args.set))}\n`);
  process.exit(0);
}

const passOn = ['per-type', 'seed', 'baseline-events', 'history-seed', 'warm-up-events', 'mongo']
  .filter((name) => args[name as keyof typeof args] !== undefined)
  .flatMap((name) => [`--${name}`, String(args[name as keyof typeof args])]);
const figures = new Map<string, SetFigures>();
for (const set of ['hostile', 'baseline']) {
  process.stderr.write(`› folding the ${set} set in a child process with ${PROJECTOR_MEMORY_FLAGS.join(' ')}\n`);
  const child = spawnSync(process.execPath, [...PROJECTOR_MEMORY_FLAGS, 'bench/hostileFold.ts', '--set', set, ...passOn], {
    encoding: 'utf8',
    maxBuffer: 16 * 2 ** 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`the ${set} set's child exited with ${child.status ?? child.signal}`);
  figures.set(set, JSON.parse(child.stdout.trim().split('\n').pop()!) as SetFigures);
}

const timed = (t: Timed | undefined): string => (t ? `${ms(t.ms)} (${ms(t.cpuMs)}) ${t.label}` : '-');
const both = [figures.get('hostile')!, figures.get('baseline')!];
const row = (label: string, cell: (f: SetFigures) => string): string[] => [label, ...both.map(cell)];
const report = `${table(
  [
    `one event at a time, decode + validate + projectBatch${args.mongo ? ' into the database' : ''}`,
    'adversarial events',
    'ordinary history',
  ],
  [
    row('events', (f) => f.events.toLocaleString('en')),
    row('dead-lettered by the consumer (invalid / fold threw)', (f) => `${f.invalid} / ${f.poison}`),
    row('fold + derivation p50', (f) => ms(f.p50)),
    row('fold + derivation p99', (f) => ms(f.p99)),
    row('fold + derivation p99, CPU time', (f) => ms(f.p99Cpu)),
    ...[0, 1, 2].map((i) => row(`slowest #${i + 1}, wall (CPU)`, (f) => timed(f.slowest[i]))),
    ...[0, 1, 2].map((i) => row(`slowest #${i + 1} by CPU time, wall (CPU)`, (f) => timed(f.slowestCpu[i]))),
    row('slowest decode + validate', (f) => `${ms(f.slowestDecode.ms)} ${f.slowestDecode.label}`),
    row('all events', (f) => ms(f.totalMs)),
    row('peak RSS (process)', (f) => mb(f.peakRss)),
    row('peak heap used', (f) => mb(f.peakHeap)),
  ],
)}\n`;
process.stdout.write(report);
record('', report);
