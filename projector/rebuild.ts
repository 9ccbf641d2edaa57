// Rebuild command: `npm run rebuild` (node dist/projector/rebuild.js). Replays the events topic
// into a new generation of the read model and switches the API and the projectors to it.
import { loadConfig } from '../services/config/index.ts';
import { createKafka } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { connectMongo } from '../services/mongo/index.ts';
import { runMain } from '../services/runMain.ts';
import { createProjectorMetrics } from './metrics/projectorMetrics.ts';
import { rebuildReadModel } from './rebuild/rebuildReadModel.ts';
import { ensureReadModelIndexes } from '../services/readModel/indexPlan.ts';

runMain('rebuild', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('rebuild', config.logLevel);
  const metrics = createProjectorMetrics(createRegistry('rebuild', false));
  const mongo = await connectMongo(config.mongo.url, config.mongo.db);
  const kafka = createKafka({ clientId: `${config.kafka.clientId}-rebuild`, brokers: config.kafka.brokers, logger });
  const progress = setInterval(() => {
    void metrics.rebuildProgress.get().then((g) => process.stderr.write(`rebuild: ${(100 * (g.values[0]?.value ?? 0)).toFixed(1)} %\n`));
  }, 5000);
  try {
    const result = await rebuildReadModel({
      db: mongo.db,
      kafka,
      topic: config.kafka.topic,
      dlqTopic: config.kafka.dlqTopic,
      groupId: config.kafka.groupId,
      projection: { zone: config.calendar.timeZone, bufferPeriodDays: config.calendar.bufferPeriodDays },
      clock: () => new Date(),
      metrics,
      logger,
      ensureIndexes: ensureReadModelIndexes,
    });
    process.stdout.write(`rebuilt generation ${result.to} from ${result.messages} messages in ${result.seconds.toFixed(1)} s (generation ${result.from} dropped)\n`);
  } finally {
    clearInterval(progress);
    await mongo.close();
  }
});
