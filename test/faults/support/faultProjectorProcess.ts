// A projector in its own OS process, for the tests that kill it or fault a server under it:
//   node test/faults/support/faultProjectorProcess.ts '<json options>'
// It is projector/main.ts with the test's fixed clock and servers: the production runProjector
// (consumer, writer, clock) and the production readiness on its own operators' port. It prints
// `wrote <collection> <n>` after every bulk write and `running` once consuming, so a test can
// kill it mid-batch or fault a server under it.
import { loadConfig } from '../../../services/config/index.ts';
import { createKafka } from '../../../services/kafka/index.ts';
import { createLogger } from '../../../services/logger.ts';
import { createRegistry } from '../../../services/metrics/createRegistry.ts';
import { connectMongo } from '../../../services/mongo/index.ts';
import { startOpsServer } from '../../../services/ops/index.ts';
import { ensureReadModelIndexes } from '../../../services/readModel/indexPlan.ts';
import { createProjectorMetrics } from '../../../projector/metrics/projectorMetrics.ts';
import { projectorReadiness } from '../../../projector/projectorReadiness.ts';
import { runProjector } from '../../../projector/runProjector.ts';
import type { ProjectionConfig } from '../../../projector/evolve/index.ts';

export interface FaultProjectorOptions {
  brokers: string[];
  mongoUrl: string;
  db: string;
  topic: string;
  dlqTopic: string;
  groupId: string;
  now: string;
  /** When set, the clock runs on from `now` as from this instant (epoch ms): a time-driven transition can fall due. Fixed otherwise. */
  nowAtMs?: number;
  config: ProjectionConfig;
  chunkSize: number;
  opsPort: number;
  /** pino level for stderr (the test prints it when the process fails); default 'warn'. */
  logLevel?: string;
}

const opts = JSON.parse(process.argv[2] ?? '{}') as FaultProjectorOptions;
const logger = createLogger('fault-projector', opts.logLevel ?? 'warn');
const registry = createRegistry('test', false);
const metrics = createProjectorMetrics(registry);
const counted = metrics.databaseWrites.inc.bind(metrics.databaseWrites);
metrics.databaseWrites.inc = ((labels: { collection: string }, n: number) => {
  process.stdout.write(`wrote ${labels.collection} ${n}\n`);
  counted(labels, n);
}) as typeof metrics.databaseWrites.inc;

const mongo = await connectMongo(opts.mongoUrl, opts.db);
const kafka = createKafka({ clientId: 'fault-projector', brokers: opts.brokers, logger });
const admin = kafka.admin();
await admin.connect();
const now = new Date(opts.now);
const nowAtMs = opts.nowAtMs;
const projector = await runProjector({
  db: mongo.db,
  kafka,
  topic: opts.topic,
  dlqTopic: opts.dlqTopic,
  groupId: opts.groupId,
  projection: opts.config,
  clock: nowAtMs === undefined ? () => now : () => new Date(now.getTime() + Date.now() - nowAtMs),
  metrics,
  logger,
  ensureIndexes: ensureReadModelIndexes,
  chunkSize: opts.chunkSize,
  clockSchedule: '*/1 * * * * *',
  // Production's group timings: what a fail-over costs here is what it costs an operator.
  ...loadConfig({}).kafka.membership,
});
const ops = await startOpsServer({
  host: '127.0.0.1',
  port: opts.opsPort,
  registry,
  readiness: projectorReadiness({ mongo, admin, projector }),
});
process.stdout.write('running\n');
process.once('SIGTERM', () => {
  ops.close();
  void projector
    .stop()
    .then(() => Promise.all([admin.disconnect(), mongo.close()]))
    .then(() => process.exit(0));
});
