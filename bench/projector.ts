// Projector benchmark: node bench/projector.ts [--events 1000000] [--seed 1] [--e2e-seconds 120]
//                                               [--rates 500,2000] [--parts replay,live]
//                                               [--results docs/performance.md | none]
// (`npm run bench:projector`). Publishes a generated history once (reused by later runs), then
// measures, each in its own process on the same topic: a no-op kafkajs consumer, our pipeline
// with its writer swapped for an in-memory store that counts operations (keeping only what the
// pipeline reads back: states, link facts and guard stamps), and the pipeline end to end into
// the configured database; then produce-to-visible delays at steady rates. Each part's figures
// replace its block in docs/performance.md, with the date, machine and commit.
import { execFile } from 'node:child_process';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { optionsFromEnv, startLocalServers } from '../infra/localServers.ts';
import { createHistory, publishHistory } from '../generator/index.ts';
import { countTopicMessages, createKafka } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import type { LivePhase } from './livePhase.ts';
import { PROJECTOR_MEMORY_FLAGS } from '../projector/memoryBound.ts';
import { resultsRecorder, RESULTS_FILE } from './saveResults.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '1' },
    'e2e-seconds': { type: 'string', default: '120' },
    rates: { type: 'string', default: '500,2000' },
    // replay: no-op, pipeline and end to end on the published topic (one run, so the ratio holds); live: steady rates.
    parts: { type: 'string', default: 'replay,live' },
    // Where each part's figures are kept (its block replaced); `none` writes nothing.
    results: { type: 'string', default: RESULTS_FILE },
  },
});
const record = resultsRecorder('bench:projector', args.results);
const log = (line: string): void => void process.stderr.write(`› ${line}\n`);
const run = promisify(execFile);

interface Result {
  mode: string;
  events: number;
  seconds: number;
  writes?: number;
  rewritesInBatch?: number;
  maxRssMb: number;
  liveHeapMb: number;
  timeBoxed?: boolean;
  replaySeconds?: number;
  indexSeconds?: number;
  phases?: LivePhase[];
}

async function worker(mode: string, extra: string[], nodeFlags: readonly string[] = []): Promise<Result> {
  const { stdout } = await run(process.execPath, [...nodeFlags, '--expose-gc', 'bench/projectorWorker.ts', '--mode', mode, ...extra], {
    maxBuffer: 1 << 24,
    timeout: 3_600_000,
  });
  // The worker's log lines share stdout (a warning can follow the report while it stops).
  const report = stdout
    .split('\n')
    .filter((l) => l.startsWith('{"mode":'))
    .pop();
  if (!report) throw new Error(`no report from the ${mode} worker: ${stdout.slice(-500)}`);
  return JSON.parse(report) as Result;
}

const endpoints = await startLocalServers(optionsFromEnv(process.env, log));
const parts = new Set(args.parts.split(','));
const brokerArgs = ['--brokers', endpoints.kafkaBrokers, '--mongo', endpoints.mongoUrl];
// Without MONGO_URL the database is the local stand-in, whose figures are not MongoDB's.
const database = process.env.MONGO_URL ? endpoints.mongoUrl : 'local SecantusDB 0.5.3 (stand-in)';
if (parts.has('replay')) await replay();

if (parts.has('live')) {
  for (const store of ['database', 'memory'] as const) await live(store);
}
process.exit(0);

/**
 * Produce-to-visible delays at steady rates into the database (the goal's figure), then the same
 * into the counting store (a diagnostic: Kafka and our own pipeline without the database).
 */
async function live(store: 'database' | 'memory'): Promise<void> {
  log(`live: steady producer rates, produce-to-visible delay (${store === 'database' ? database : 'counting store, no database'})`);
  const result = await worker('live', [...brokerArgs, '--rates', args.rates, '--live-store', store]);
  const phases = result.phases ?? [];
  const rows = phases.map(
    (p) =>
      `${String(p.rate).padStart(8)} ${String(p.achievedRate).padStart(9)} ${String(p.p50Ms).padStart(8)} ${String(p.p99Ms).padStart(8)}  ` +
      `${p.sustained ? 'sustained' : p.achievedRate < 0.95 * p.rate ? 'not held: the producer (in the same process) fell short of the rate' : `fell behind (${p.unapplied} unapplied ${(p.drainMs / 1000).toFixed(0)} s after the producer stopped; their delays are not in p50/p99)`}${p.probe ? ', probe' : ''}`,
  );
  const sustained = phases.filter((p) => p.sustained).map((p) => p.rate);
  const underOneSecond = phases.filter((p) => p.sustained && p.p99Ms < 1000).map((p) => p.rate);
  const under200 = phases.filter((p) => p.sustained && p.p99Ms < 200).map((p) => p.rate);
  const figures = [
    store === 'database'
      ? `Live, produce to document visible (Kafka ${endpoints.kafkaBrokers}, ${database}; 15 s per rate, each rate on a new topic and database)`
      : `Live, produce to folded into the counting store (Kafka ${endpoints.kafkaBrokers}, no database: our pipeline's own delay, a diagnostic; 15 s per rate, each on a new topic)`,
    `${'rate/s'.padStart(8)} ${'achieved'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`,
    ...rows,
    `highest rate sustained: ${sustained.length ? Math.max(...sustained) : 'none'} events/s; with p99 under 1 s: ${underOneSecond.length ? Math.max(...underOneSecond) : 'none'} events/s; under 200 ms: ${under200.length ? Math.max(...under200) : 'none'} events/s; peak RSS ${result.maxRssMb} MB`,
  ].join('\n');
  process.stdout.write(`\n${figures}\n\n`);
  record(store === 'database' ? 'live' : 'live, counting store', figures);
}

async function replay(): Promise<void> {
  const kafka = createKafka({ clientId: 'bench', brokers: endpoints.kafkaBrokers.split(','), logger: createLogger('bench', 'warn') });
  const topic = `bench.events.s${args.seed}.n${args.events}`;
  const admin = kafka.admin();
  await admin.connect();
  const existing = await countTopicMessages(admin, topic);
  let total = existing;
  if (existing === 0) {
    log(`publishing ${args.events} generated events to ${topic} (once; later runs reuse the topic)`);
    const began = performance.now();
    const { published } = await publishHistory({
      brokers: endpoints.kafkaBrokers.split(','),
      topic,
      partitions: 6,
      events: createHistory({ seed: Number(args.seed), events: Number(args.events), now: new Date('2026-11-23T12:00:00Z') }),
    });
    total = published;
    log(`published ${published} in ${((performance.now() - began) / 1000).toFixed(0)} s`);
  } else {
    log(`reusing ${topic} with ${existing} events`);
  }
  await admin.disconnect();

  const common = ['--topic', topic, '--total', String(total), ...brokerArgs];
  const rate = (r: Result): number => r.events / r.seconds;
  const line = (name: string, r: Result, note = ''): string =>
    `${name.padEnd(34)} ${String(r.events).padStart(9)} ${r.seconds.toFixed(1).padStart(8)} ${Math.round(rate(r)).toString().padStart(10)} ${(r.writes === undefined ? '-' : (r.writes / r.events).toFixed(2)).padStart(12)} ${String(r.maxRssMb).padStart(9)}  ${note}`;
  // Each figure is printed as soon as it is measured, and all of them are recorded at the end.
  const printed: string[] = [];
  const print = (text: string): void => {
    printed.push(text);
    process.stdout.write(`${text}\n`);
  };
  process.stdout.write('\n');
  print(
    [
      `Projector replay of ${total} events (topic ${topic}, 6 partitions), one run, same topic`,
      `${'measurement'.padEnd(34)} ${'events'.padStart(9)} ${'seconds'.padStart(8)} ${'events/s'.padStart(10)} ${'writes/event'.padStart(12)} ${'peak RSS'.padStart(9)}`,
    ].join('\n'),
  );
  log('no-op kafkajs consumer');
  const noop = await worker('noop', common);
  print(`${line('no-op kafkajs consumer', noop, 'MB')}`);
  log('consumer with validation only, no fold');
  const validate = await worker('validate', common);
  print(
    `${line('validation only (no fold)', validate, `MB  ${((100 * rate(validate)) / rate(noop)).toFixed(0)} % of no-op: the ceiling of any pipeline that decodes and validates every event`)}`,
  );
  log('pipeline with the counting in-memory store');
  const pipeline = await worker('pipeline', common);
  print(
    `${line('pipeline, counting store', pipeline, `MB  ${((100 * rate(pipeline)) / rate(noop)).toFixed(0)} % of no-op, ${((100 * rate(pipeline)) / rate(validate)).toFixed(0)} % of validation only (goal >= 50 %); documents written twice within one batch: ${pipeline.rewritesInBatch} (goal 0); RSS includes the in-memory states and link facts the pipeline reads back (document bodies are counted, not kept): ${pipeline.liveHeapMb} MB still reachable after a full GC`)}`,
  );
  const phases = (r: Result): string =>
    `replay ${r.replaySeconds!.toFixed(1)} s + derived coaches and clubs beside the API indexes ${r.indexSeconds!.toFixed(1)} s`;
  log(`the operator's rebuild into ${endpoints.mongoUrl} with the projector's launch flags (node ${PROJECTOR_MEMORY_FLAGS.join(' ')})`);
  const rebuild = await worker('rebuild', common, PROJECTOR_MEMORY_FLAGS);
  print(`${line(`rebuild, ${database}`, rebuild, `MB  goals: >= 10,000 events/s, peak RSS < 512 MB; ${phases(rebuild)}`)}`);
  log('the same rebuild without a heap cap (Node defaults; a diagnostic of what the cap costs)');
  const uncapped = await worker('rebuild', common);
  print(
    `${line('rebuild, Node defaults (no heap cap)', uncapped, `MB  ${phases(uncapped)}; the launch flags keep ${((100 * rate(rebuild)) / rate(uncapped)).toFixed(0)} % of this rate at ${((100 * rebuild.maxRssMb) / uncapped.maxRssMb).toFixed(0)} % of its peak RSS`)}`,
  );
  log(`end to end into ${endpoints.mongoUrl} (at most ${args['e2e-seconds']} s)`);
  const e2e = await worker('e2e', [...common, '--seconds', args['e2e-seconds'], '--chunk', '500']);
  print(
    `${line(`live consumer, all indexes, ${database}`, e2e, `MB  ${e2e.timeBoxed ? `time-boxed at ${args['e2e-seconds']} s; ` : ''}${process.env.MONGO_URL ? '' : "the stand-in's speed, not MongoDB's"}`)}`,
  );
  record('replay', printed.join('\n'));
}
