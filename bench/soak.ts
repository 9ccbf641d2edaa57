// The soak: node bench/soak.ts [--seconds 180] [--seed-events 50000] [--rps 200] [--event-rate 25]
// [--hostile-rps 100] [--slow-clients 200] [--hostile-event-rate 2] [--per-type 8] [--keep-logs] [--api-heap-mb N] (`npm run
// bench:soak`). The real API and projector processes, as `npm start` launches them, on the local
// Kafka and database (KAFKA_BROKERS, MONGO_URL; `npm run infra -- start`) with their own topic,
// consumer group, database and free ports, over a seeded federation. Two halves of `--seconds`
// each: ordinary load only (GETs at a steady rate from many clients, a third conditional, and the
// generated history's next events at a steady rate), then the same ordinary load with a hostile
// part beside it (soakHostileLoad.ts: distinct URLs, many addresses, one /64, long and odd
// parameters, slow clients; and test/adversarial's events mixed into the stream). Prints, side
// by side, what the ordinary clients saw, what the hostile ones got, both processes' RSS and the
// events applied, dead-lettered and their produce-to-visible time. Drops what it made.
import { parseArgs } from 'node:util';
import { mb, ms, percentile, spreadMb, statusLine, table } from './soakFigures.ts';
import type { HalfFigures } from './soakHalf.ts';
import { runSoak } from './soakRun.ts';
import { resultsRecorder, RESULTS_FILE } from './saveResults.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '180' },
    'seed-events': { type: 'string', default: '50000' },
    'history-seed': { type: 'string', default: '7' },
    rps: { type: 'string', default: '200' },
    'event-rate': { type: 'string', default: '25' },
    'hostile-rps': { type: 'string', default: '100' },
    'slow-clients': { type: 'string', default: '200' },
    'hostile-event-rate': { type: 'string', default: '2' },
    'per-type': { type: 'string', default: '8' },
    'keep-logs': { type: 'boolean', default: false },
    'api-heap-mb': { type: 'string' },
    // Where the figures of this run are kept (its block replaced); `none` writes nothing.
    results: { type: 'string', default: RESULTS_FILE },
  },
});
const record = resultsRecorder('bench:soak', args.results);
const log = (line: string): void => void process.stderr.write(`› ${line}\n`);

const began = performance.now();
const figures = await runSoak({
  brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
  mongoUrl: process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017/?directConnection=true',
  seconds: Number(args.seconds),
  seedEvents: Number(args['seed-events']),
  historySeed: Number(args['history-seed']),
  rps: Number(args.rps),
  eventRate: Number(args['event-rate']),
  hostileRps: Number(args['hostile-rps']),
  slowClients: Number(args['slow-clients']),
  hostileEventRate: Number(args['hostile-event-rate']),
  perType: Number(args['per-type']),
  keepLogs: args['keep-logs'],
  ...(args['api-heap-mb'] ? { apiHeapMb: Number(args['api-heap-mb']) } : {}),
  log,
});

const { ordinary: a, hostile: b } = figures.halves;
const row = (label: string, cell: (h: HalfFigures) => string): string[] => [label, cell(a), cell(b)];
const hostileKinds = Object.keys(b.hostile?.statuses ?? {}).sort();
const report =
  `seeded ${figures.seeded.toLocaleString('en')} events; ${args.seconds} s per half; ordinary ${args.rps} requests/s and ${args['event-rate']} events/s; ` +
  `hostile ${args['hostile-rps']} requests/s, ${args['slow-clients']} slow clients, ${args['hostile-event-rate']} events/s\n\n` +
  `${table(
    ['', 'ordinary load only', 'ordinary + hostile'],
    [
      row('ordinary requests', (h) => h.ordinary.requests.toLocaleString('en')),
      row('  throughput', (h) => `${h.ordinary.perSecond.toFixed(1)} /s`),
      row('  p50 / p99 / max', (h) => `${ms(h.ordinary.p50)} / ${ms(h.ordinary.p99)} / ${ms(h.ordinary.max)}`),
      row('  statuses', (h) => statusLine(h.ordinary.statuses)),
      row('  errors / timeouts', (h) => `${h.ordinary.errors} / ${h.ordinary.timeouts}`),
      ...hostileKinds.map((kind) => row(`hostile ${kind}`, (h) => statusLine(h.hostile?.statuses[kind] ?? {}))),
      row('hostile requests skipped (in-flight cap)', (h) => (h.hostile ? String(h.hostile.skipped) : '-')),
      row('slow clients: opened / cut 408 / closed unanswered / open at end / other', (h) => {
        const s = h.hostile?.slow;
        return s ? `${s.opened} / ${s.cut408} / ${s.closedUnanswered} / ${s.openAtEnd} / ${s.other}` : '-';
      }),
      row('API RSS min / median / max', (h) => spreadMb(h.apiRss)),
      row('projector RSS min / median / max', (h) => spreadMb(h.projectorRss)),
      row('heap used at the end: API / projector', (h) => `${mb(h.apiHeapMb * 2 ** 20)} / ${mb(h.projectorHeapMb * 2 ** 20)}`),
      row('events produced: ordinary / hostile (in s)', (h) => {
        const { ordinarySent, hostileSent, producingMs } = h.stream;
        return `${ordinarySent.toLocaleString('en')} / ${hostileSent} (${(producingMs / 1000).toFixed(0)} s)`;
      }),
      row('events applied (projector)', (h) => h.applied.toLocaleString('en')),
      row('dead-lettered (metric / DLQ messages)', (h) => `${h.deadLettered} / ${h.dlqMessages}`),
      row(
        'ordinary produce -> visible p50 / p99',
        (h) => `${ms(percentile(h.stream.visibleMs, 50))} / ${ms(percentile(h.stream.visibleMs, 99))}`,
      ),
      row('  ordinary events not visible after 60 s', (h) => String(h.stream.notVisible)),
      row('CPU used: API / projector', (h) => `${h.cpu.api.toFixed(0)} s / ${h.cpu.projector.toFixed(0)} s`),
      row('projector time in batches', (h) => `${h.batchSeconds.toFixed(0)} s`),
      row('consumer restarts', (h) => String(h.restarts)),
      row(
        'machine load average min / median / max',
        (h) => `${h.load.min.toFixed(1)} / ${h.load.median.toFixed(1)} / ${h.load.max.toFixed(1)}`,
      ),
      row('/health/ready at the end: API / projector', (h) => `${h.ready.api} / ${h.ready.projector}`),
    ],
  )}\n` +
  `(whole run ${Math.round((performance.now() - began) / 1000)} s)\n`;
process.stdout.write(report);
record('', report);
process.exit(0);
