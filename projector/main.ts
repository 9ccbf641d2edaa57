// The projector process: consumes the events topic and keeps the read model in MongoDB.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Admin } from 'kafkajs';
import type { Db } from 'mongodb';
import { loadConfig, type Config } from '../services/config/index.ts';
import { createKafka, ensureTopics } from '../services/kafka/index.ts';
import { createLogger, drainLog, stderrLog, type Logger } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { connectMongo, giveBackBuild } from '../services/mongo/index.ts';
import { runMain } from '../services/runMain.ts';
import { shutdownOnSignal, type Shutdown } from '../services/shutdown.ts';
import { createProjectorMetrics, type ProjectorMetrics } from './metrics/projectorMetrics.ts';
import { refreshLagFromKafka } from './metrics/refreshLagFromKafka.ts';
import { recordFreshness } from './freshness/recordFreshness.ts';
import { projectorContext, type ProjectorContext } from './projectorContext.ts';
import { bootstrapFromTopic } from './bootstrap/bootstrapFromTopic.ts';
import { runProjector } from './runProjector.ts';
import { checkEventsTopic } from './checkEventsTopic.ts';
import { refreshTopicRetention } from './metrics/refreshTopicRetention.ts';
import { refreshRebuildProgress } from './metrics/refreshRebuildProgress.ts';
import { openOpsPort } from './openOpsPort.ts';

runMain('projector', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('projector', config.logLevel);
  // Closed newest first: consuming stops (the in-flight batch finishes and commits) before the
  // admin client and the database close.
  const shutdown = shutdownOnSignal(logger);
  const registry = createRegistry('projector');
  const metrics = createProjectorMetrics(registry);
  const mongo = await connectMongo(config.mongo.url, config.mongo.db, { metrics: registry });
  shutdown.add('mongo', () => mongo.close());
  const kafka = createKafka({
    clientId: `${config.kafka.clientId}-projector`,
    brokers: config.kafka.brokers,
    security: config.kafka.security,
    logger,
  });
  const admin = kafka.admin();
  await admin.connect();
  shutdown.add('kafka admin', () => admin.disconnect());
  const ops = await openOpsPort({ config, registry, mongo, admin, shutdown, partitions: metrics.partitions });
  const created = await ensureTopics(admin, [
    { topic: config.kafka.topic, numPartitions: config.kafka.topicPartitions },
    { topic: config.kafka.dlqTopic, numPartitions: config.kafka.topicPartitions },
  ]);
  if (created.length > 0) logger.info({ topics: created }, 'created missing topics');
  await checkEventsTopic({ admin, db: mongo.db, topic: config.kafka.topic, groupId: config.kafka.groupId, metrics, logger });

  const context = projectorContext(config, { db: mongo.db, kafka, metrics, logger });
  await bootstrap(context, config, shutdown);
  const report = (line: string): void => void stderrLog().write(`› ${line}\n`);
  // Stopped during a format upgrade, this instance gives the build claim back at once, so
  // another one takes the upgrade over without waiting for the claim to go stale (a no-op when
  // it holds none).
  const owner = `projector on ${hostname()} (pid ${process.pid}, ${randomUUID().slice(0, 8)})`;
  shutdown.add('build claim', () => giveBackBuild(mongo.db, owner));
  const projector = await runProjector({
    ...context,
    clockSchedule: config.projector.clockSchedule,
    changeRetention: { maxAgeMs: config.changes.retentionHours * 3_600_000, maxCount: config.changes.retentionMax },
    // A stalled instance whose build claim was taken over must stop writing at once, not drain.
    upgrade: { owner, report, onClaimLost: () => void drainLog(500).then(() => process.exit(1)) },
  });
  ops.started(projector);
  shutdown.add('projector', () => projector.stop());
  shutdown.add('freshness, lag, retention and rebuild refresh', startRefreshers(config, admin, mongo.db, metrics, logger));
  logger.info(
    { ops: `http://${config.opsHost}:${config.projector.opsPort}`, topic: config.kafka.topic, generation: projector.generation() },
    'projector started',
  );
});

/**
 * A first start before a long event log (the demo) fills the read model as a rebuild does; npm
 * start shows the progress. Stopped meanwhile, it ends at once and gives its claim back: the next
 * start bootstraps again (the rebuild drops the half-filled generation first) instead of
 * projecting the whole log live.
 */
async function bootstrap(context: ProjectorContext, config: Readonly<Config>, shutdown: Shutdown): Promise<void> {
  let takeBack: (() => void) | undefined;
  await bootstrapFromTopic(context, {
    minEvents: config.projector.bootstrapMinEvents,
    report: (line) => stderrLog().write(`› ${line}\n`),
    onClaim: (giveBack) => {
      context.metrics.bootstrapRunning.set(1);
      takeBack = shutdown.add('bootstrap claim', async () => {
        context.logger.info('stopped during the first projection of the event log; the next start begins it again');
        await giveBack();
      });
    },
  });
  takeBack?.();
  context.metrics.bootstrapRunning.set(0);
}

/** The periodic reads behind the freshness header and the lag, retention and rebuild gauges; returns what stops them. */
function startRefreshers(config: Readonly<Config>, admin: Admin, db: Db, metrics: ProjectorMetrics, logger: Logger): () => Promise<void> {
  const topics = { topic: config.kafka.topic, dlqTopic: config.kafka.dlqTopic, groupId: config.kafka.groupId };
  const stops = [
    recordFreshness({ admin, db, ...topics, logger }),
    refreshLagFromKafka({ admin, db, ...topics, metrics, logger }),
    refreshTopicRetention({ admin, topic: config.kafka.topic, metrics, logger }),
    refreshRebuildProgress({ db, metrics, logger }),
  ];
  return () => {
    for (const stop of stops.toReversed()) stop();
    return Promise.resolve();
  };
}
