// Fail-over benchmark: node bench/failover.ts [--runs 3] [--rate 50] [--instances 3] [--pause-ms N]
// (`npm run bench:failover`). Real projector processes, launched as `npm start` launches one, share
// a fresh topic, group and database per run on the local broker and database, under a steady
// event stream; one is killed (SIGKILL), one stopped (SIGTERM) and one paused past the session
// timeout (SIGSTOP, then SIGCONT). For each fault: the longest produce → visible delay of any
// event, the time until every partition is consumed again, and events lost or doubled.
// The projectors take their settings from this process's environment, as in production.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { optionsFromEnv, startLocalServers } from '../infra/localServers.ts';
import { loadConfig } from '../services/config/index.ts';
import { spread } from './soakFigures.ts';
import { failoverRun, type FaultName, type RunResult } from './failoverRun.ts';
import { resultsRecorder, RESULTS_FILE } from './saveResults.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    // A federation's write side produces a few events a second; 50 leaves room for the catch-up after a fault on 2 cores.
    rate: { type: 'string', default: '50' },
    instances: { type: 'string', default: '3' },
    partitions: { type: 'string', default: '6' },
    // How long the paused projector stays stopped; default the session timeout plus 3 s.
    'pause-ms': { type: 'string' },
    'warmup-ms': { type: 'string', default: '10000' },
    'settle-ms': { type: 'string', default: '3000' },
    seed: { type: 'string', default: '7' },
    // Where the figures of this run are kept (its block replaced); `none` writes nothing.
    results: { type: 'string', default: RESULTS_FILE },
  },
});
const record = resultsRecorder('bench:failover', args.results);
const log = (line: string): void => void process.stderr.write(`› ${line}\n`);

const endpoints = await startLocalServers(optionsFromEnv(process.env, log));
const env = {
  ...process.env,
  KAFKA_BROKERS: endpoints.kafkaBrokers,
  MONGO_URL: endpoints.mongoUrl,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  PROJECTOR_BOOTSTRAP_MIN_EVENTS: '0',
};
const config = loadConfig(env);
const { sessionTimeoutMs, heartbeatIntervalMs, rebalanceTimeoutMs } = config.kafka.membership;
const pauseMs = Number(args['pause-ms'] ?? sessionTimeoutMs + 3000);
const runs = Number(args.runs);
log(
  `${runs} runs: ${args.instances} projectors, ${args.partitions} partitions, ${args.rate} events/s; session ${sessionTimeoutMs} ms, ` +
    `heartbeat ${heartbeatIntervalMs} ms, rebalance ${rebalanceTimeoutMs} ms, pause ${pauseMs} ms; logs in .run/bench-failover/`,
);

const results: RunResult[] = [];
for (let run = 1; run <= runs; run++) {
  const result = await failoverRun({
    brokers: endpoints.kafkaBrokers.split(','),
    mongoUrl: endpoints.mongoUrl,
    env,
    projection: { zone: config.calendar.timeZone, bufferPeriodDays: config.calendar.bufferPeriodDays },
    instances: Number(args.instances),
    partitions: Number(args.partitions),
    rate: Number(args.rate),
    warmupMs: Number(args['warmup-ms']),
    pauseMs,
    settleMs: Number(args['settle-ms']),
    seed: Number(args.seed) + run,
    logDir: '.run/bench-failover',
    log,
  });
  results.push(result);
  const faults = result.faults.map((f) => {
    const exit = f.exitMs === undefined ? '' : `, exited after ${Math.round(f.exitMs)} ms`;
    return `${f.name}: longest ${Math.round(f.figures.longestDelayMs)} ms, all partitions ${Math.round(f.figures.allPartitionsMs)} ms${exit}`;
  });
  // The machine's load beside each run: on a shared machine other work moves every figure.
  const load = loadavg()[0]!.toFixed(1);
  log(`run ${run} (load ${load}): ${result.sent} events, lost ${result.lost}, doubled ${result.doubled}; ${faults.join('; ')}`);
  if (result.drift.missingDocuments + result.drift.extraDocuments + result.drift.differingDocuments > 0) {
    log(`run ${run}: documents differing from the clean rebuild: ${JSON.stringify(result.drift)}`);
  }
}

const row = (name: FaultName): string => {
  const of = results.flatMap((r) => r.faults.filter((f) => f.name === name));
  const fmt = (values: number[]): string => {
    const s = spread(values.map((v) => Math.round(v)));
    return `${s.min} / ${s.median} / ${s.max}`.padEnd(24);
  };
  return `| ${name.padEnd(18)} | ${fmt(of.map((f) => f.figures.longestDelayMs))} | ${fmt(of.map((f) => f.figures.allPartitionsMs))} |`;
};
const lost = results.reduce((n, r) => n + r.lost, 0);
const doubled = results.reduce((n, r) => n + r.doubled, 0);
const figures = [
  `| fault (${runs} runs)       | longest delay, ms (min / median / max) | all partitions consumed again, ms |`,
  '|---|---|---|',
  row('no fault'),
  row('crash'),
  row('graceful stop'),
  row('pause'),
  row('replacement joins'),
  '',
  `events lost ${lost}, doubled ${doubled} (of ${results.reduce((n, r) => n + r.sent, 0)} sent)`,
].join('\n');
process.stdout.write(`\n${figures}\n\n`);
record('', figures);
process.exit(lost === 0 && doubled === 0 ? 0 : 1);
