// The projector process: consumes the events topic and keeps the read model in MongoDB.
import { loadConfig } from '../services/config/index.ts';
import { createKafka, ensureTopics } from '../services/kafka/index.ts';
import { createLogger, stderrLog } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { connectMongo } from '../services/mongo/index.ts';
import { startOpsServer } from '../services/ops/index.ts';
import { runMain } from '../services/runMain.ts';
import { shutdownOnSignal } from '../services/shutdown.ts';
import { createProjectorMetrics } from './metrics/projectorMetrics.ts';
import { refreshLagFromKafka } from './metrics/refreshLagFromKafka.ts';
import { recordFreshness } from './freshness/recordFreshness.ts';
import { projectorContext } from './projectorContext.ts';
import { bootstrapFromTopic } from './bootstrap/bootstrapFromTopic.ts';
import { runProjector, type RunningProjector } from './runProjector.ts';
import { projectorReadiness } from './projectorReadiness.ts';
import { checkEventsTopic } from './checkEventsTopic.ts';
import { refreshTopicRetention } from './metrics/refreshTopicRetention.ts';
import { refreshRebuildProgress } from './metrics/refreshRebuildProgress.ts';

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
  const kafka = createKafka({ clientId: `${config.kafka.clientId}-projector`, brokers: config.kafka.brokers, logger });
  const admin = kafka.admin();
  await admin.connect();
  shutdown.add('kafka admin', () => admin.disconnect());
  // Open before the bootstrap, which may take many minutes: Prometheus sees the instance up
  // (not "no projector"), not ready, and bootstrapping, with the replay's progress.
  const started: { projector?: RunningProjector } = {};
  const ops = await startOpsServer({
    host: config.opsHost,
    port: config.projector.opsPort,
    registry,
    readiness: projectorReadiness({ mongo, admin, projector: { isRunning: () => started.projector?.isRunning() ?? false } }),
    live: () => started.projector?.isLive() ?? true,
  });
  shutdown.add('ops server', () => new Promise((resolve) => ops.close(resolve)));
  const created = await ensureTopics(admin, [
    { topic: config.kafka.topic, numPartitions: config.kafka.topicPartitions },
    { topic: config.kafka.dlqTopic, numPartitions: config.kafka.topicPartitions },
  ]);
  if (created.length > 0) logger.info({ topics: created }, 'created missing topics');
  await checkEventsTopic({ admin, db: mongo.db, topic: config.kafka.topic, groupId: config.kafka.groupId, metrics, logger });

  const context = projectorContext(config, { db: mongo.db, kafka, metrics, logger });
  // A first start before a long event log (the demo) fills the read model as a rebuild does; npm start shows the progress.
  // Stopped meanwhile, it ends at once and gives its claim back: the next start bootstraps again
  // (the rebuild drops the half-filled generation first) instead of projecting the whole log live.
  let takeBack: (() => void) | undefined;
  await bootstrapFromTopic(context, {
    minEvents: config.projector.bootstrapMinEvents,
    report: (line) => stderrLog().write(`› ${line}\n`),
    onClaim: (giveBack) => {
      metrics.bootstrapRunning.set(1);
      takeBack = shutdown.add('bootstrap claim', async () => {
        logger.info('stopped during the first projection of the event log; the next start begins it again');
        await giveBack();
      });
    },
  });
  takeBack?.();
  metrics.bootstrapRunning.set(0);
  const projector = await runProjector({
    ...context,
    clockSchedule: config.projector.clockSchedule,
  });
  started.projector = projector;
  shutdown.add('projector', () => projector.stop());

  const stopFreshness = recordFreshness({
    admin,
    db: mongo.db,
    topic: config.kafka.topic,
    dlqTopic: config.kafka.dlqTopic,
    groupId: config.kafka.groupId,
    logger,
  });
  const stopLagRefresh = refreshLagFromKafka({
    admin,
    db: mongo.db,
    topic: config.kafka.topic,
    dlqTopic: config.kafka.dlqTopic,
    groupId: config.kafka.groupId,
    metrics,
    logger,
  });
  const stopRetentionRefresh = refreshTopicRetention({ admin, topic: config.kafka.topic, metrics, logger });
  const stopRebuildRefresh = refreshRebuildProgress({ db: mongo.db, metrics, logger });
  shutdown.add('freshness, lag, retention and rebuild refresh', () => {
    stopRebuildRefresh();
    stopRetentionRefresh();
    stopLagRefresh();
    stopFreshness();
    return Promise.resolve();
  });

  logger.info(
    { ops: `http://${config.opsHost}:${config.projector.opsPort}`, topic: config.kafka.topic, generation: projector.generation() },
    'projector started',
  );
});
