// Rebuild command: `npm run rebuild` (node dist/projector/rebuild.js). Replays the events topic
// into a new generation of the read model and switches the API and the projectors to it.
import { loadConfig } from '../services/config/index.ts';
import { createKafka } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { connectMongo } from '../services/mongo/index.ts';
import { runMain } from '../services/runMain.ts';
import { createProjectorMetrics } from './metrics/projectorMetrics.ts';
import { projectorContext } from './projectorContext.ts';
import { rebuildReadModel } from './rebuild/rebuildReadModel.ts';

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
    const result = await rebuildReadModel(projectorContext(config, { db: mongo.db, kafka, metrics, logger }));
    process.stdout.write(
      `rebuilt generation ${result.to} from ${result.messages} messages in ${result.seconds.toFixed(1)} s (generation ${result.from} dropped)\n`,
    );
  } finally {
    clearInterval(progress);
    await mongo.close();
  }
});
