// A projector in its own OS process, for tests that kill it with SIGKILL:
//   node test/support/projectorProcess.ts '<json options>'
// It runs the production runProjector (consumer, writer, clock) with the test's fixed clock, and
// prints `wrote <collection> <n>` to stdout after every bulk write completes, so a test can kill
// it while a batch is between its first write and its offset commit.
import { createKafka } from '../../services/kafka/index.ts';
import { createLogger } from '../../services/logger.ts';
import { createRegistry } from '../../services/metrics/createRegistry.ts';
import { connectMongo } from '../../services/mongo/index.ts';
import { ensureReadModelIndexes } from '../../services/readModel/indexPlan.ts';
import { createProjectorMetrics } from '../../projector/metrics/projectorMetrics.ts';
import { runProjector } from '../../projector/runProjector.ts';
import type { ProjectionConfig } from '../../projector/evolve/index.ts';

export interface ProjectorProcessOptions {
  brokers: string[];
  mongoUrl: string;
  db: string;
  topic: string;
  dlqTopic: string;
  groupId: string;
  now: string;
  config: ProjectionConfig;
  chunkSize: number;
}

const opts = JSON.parse(process.argv[2] ?? '{}') as ProjectorProcessOptions;
const logger = createLogger('projector-process', 'silent');
const metrics = createProjectorMetrics(createRegistry('test', false));
const counted = metrics.databaseWrites.inc.bind(metrics.databaseWrites);
metrics.databaseWrites.inc = ((labels: { collection: string }, n: number) => {
  process.stdout.write(`wrote ${labels.collection} ${n}\n`);
  counted(labels, n);
}) as typeof metrics.databaseWrites.inc;

const mongo = await connectMongo(opts.mongoUrl, opts.db);
const kafka = createKafka({ clientId: 'test-projector-process', brokers: opts.brokers, logger });
const now = new Date(opts.now);
const projector = await runProjector({
  db: mongo.db,
  kafka,
  topic: opts.topic,
  dlqTopic: opts.dlqTopic,
  groupId: opts.groupId,
  projection: opts.config,
  clock: () => now,
  metrics,
  logger,
  ensureIndexes: ensureReadModelIndexes,
  chunkSize: opts.chunkSize,
  clockSchedule: '*/1 * * * * *',
  sessionTimeoutMs: 6000,
});
process.stdout.write('running\n');
process.once('SIGTERM', () => {
  void projector
    .stop()
    .then(() => mongo.close())
    .then(() => process.exit(0));
});
