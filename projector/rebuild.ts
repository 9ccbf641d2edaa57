// Rebuild command: `npm run rebuild` (in the image: node dist/projector/rebuild.js, with the
// Node flags of projector/memoryBound.ts). Replays the events topic into a new generation of the
// read model and switches the API and the projectors to it.
import { hostname } from 'node:os';
import type { Admin } from 'kafkajs';
import { loadConfig } from '../services/config/index.ts';
import { createKafka, readTopicRetention, refuseReplayFromStart } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import { connectMongo, giveBackBuild } from '../services/mongo/index.ts';
import { runMain, StartRefused } from '../services/runMain.ts';
import { shutdownOnSignal } from '../services/shutdown.ts';
import { createProjectorMetrics } from './metrics/projectorMetrics.ts';
import { projectorContext } from './projectorContext.ts';
import { rebuildReadModel } from './rebuild/rebuildReadModel.ts';
import { recordProgress } from './rebuild/recordProgress.ts';

runMain('rebuild', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('rebuild', config.logLevel);
  const shutdown = shutdownOnSignal(logger);
  const metrics = createProjectorMetrics(createRegistry('rebuild', false));
  const kafka = createKafka({ clientId: `${config.kafka.clientId}-rebuild`, brokers: config.kafka.brokers, logger });
  await refuseIncompleteTopic(kafka.admin(), config.kafka.topic);
  const mongo = await connectMongo(config.mongo.url, config.mongo.db);
  shutdown.add('mongo', () => mongo.close());
  // Stopped (Ctrl-C) before its switch, the rebuild gives its claim back at once instead of
  // making the next builder wait for the claim to go stale; a no-op once the switch removed it.
  const owner = `npm run rebuild on ${hostname()} (pid ${process.pid})`;
  shutdown.add('build claim', () => giveBackBuild(mongo.db, owner));
  const progress = recordProgress(mongo.db, metrics, logger, {
    line: (ratio) => process.stderr.write(`rebuild: ${(100 * ratio).toFixed(1)} %\n`),
  });
  try {
    const context = projectorContext(config, { db: mongo.db, kafka, metrics, logger });
    const result = await rebuildReadModel({ ...context, claim: { owner } });
    await progress.finished();
    process.stdout.write(
      `rebuilt generation ${result.to} from ${result.messages} messages in ${result.seconds.toFixed(1)} s (generation ${result.from} dropped)\n`,
    );
  } finally {
    progress.stop();
    await mongo.close();
  }
});

/** A rebuild replays from offset 0: refused when the topic has lost its start, warned when it may. */
async function refuseIncompleteTopic(admin: Admin, topic: string): Promise<void> {
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) throw new StartRefused(`rebuild refused: the events topic ${topic} does not exist`);
    const retention = await readTopicRetention(admin, topic);
    refuseReplayFromStart(retention, 'rebuild');
    for (const problem of retention.settingProblems)
      process.stderr.write(`rebuild: warning: the events topic ${topic} does not keep every event: ${problem}\n`);
  } finally {
    await admin.disconnect();
  }
}
