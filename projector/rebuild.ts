// Rebuild command: `npm run rebuild [-- --json]` (in the image: node dist/projector/rebuild.js,
// with the Node flags of projector/memoryBound.ts). Replays the events topic into a new
// generation of the read model and switches the API and the projectors to it, saying as it goes
// what it does, how fast and how long still; `--json` gives JSON log lines on stdout instead.
import { hostname } from 'node:os';
import type { Admin } from 'kafkajs';
import { loadConfig } from '../services/config/index.ts';
import { createKafka, readTopicRetention, refuseReplayFromStart } from '../services/kafka/index.ts';
import { createRegistry } from '../services/metrics/createRegistry.ts';
import type { Logger } from '../services/logger.ts';
import { connectMongo, giveBackBuild } from '../services/mongo/index.ts';
import { runMain, StartRefused } from '../services/runMain.ts';
import { shutdownOnSignal } from '../services/shutdown.ts';
import { commandInvocation, commandLogger, parseJsonFlag } from './commandOutput.ts';
import { createProjectorMetrics } from './metrics/projectorMetrics.ts';
import { projectorContext } from './projectorContext.ts';
import { rebuildProgressLines } from './rebuild/rebuildProgressLines.ts';
import { rebuildReadModel } from './rebuild/rebuildReadModel.ts';
import { recordProgress } from './rebuild/recordProgress.ts';

const command = commandInvocation('rebuild', process.argv[1]);

const USAGE = `usage: ${command.run}
           rebuild the read model, saying what it does as it goes
       ${command.withArgs('--json')}
           the same, with JSON log lines on stdout instead`;

runMain('rebuild', async () => {
  const json = parseJsonFlag('rebuild', USAGE, process.argv.slice(2));
  const config = loadConfig(process.env);
  const logger = commandLogger('rebuild', { json, level: config.logLevel });
  const shutdown = shutdownOnSignal(logger);
  const metrics = createProjectorMetrics(createRegistry('rebuild', false));
  const kafka = createKafka({
    clientId: `${config.kafka.clientId}-rebuild`,
    brokers: config.kafka.brokers,
    security: config.kafka.security,
    logger,
  });
  await refuseIncompleteTopic(kafka.admin(), config.kafka.topic, logger);
  const mongo = await connectMongo(config.mongo.url, config.mongo.db);
  shutdown.add('mongo', () => mongo.close());
  // Stopped (Ctrl-C) before its switch, the rebuild gives its claim back at once instead of
  // making the next builder wait for the claim to go stale; a no-op once the switch removed it.
  const owner = `npm run rebuild on ${hostname()} (pid ${process.pid})`;
  shutdown.add('build claim', () => giveBackBuild(mongo.db, owner));
  const progress = recordProgress(mongo.db, metrics, logger);
  const write = json ? (line: string) => logger.info(line) : (line: string) => process.stderr.write(`rebuild: ${line}\n`);
  const lines = rebuildProgressLines({ write });
  write(`replaying the events topic ${config.kafka.topic} from its first event into the next generation of the read model`);
  try {
    const context = projectorContext(config, { db: mongo.db, kafka, metrics, logger });
    const result = await rebuildReadModel({
      ...context,
      claim: { owner },
      onProgress: ({ applied, total }) => lines.replayed(applied, total),
      onStage: (stage) => lines.stage(stage),
    });
    lines.stop();
    await progress.finished();
    const done = `rebuilt generation ${result.to} from ${result.messages} messages in ${result.seconds.toFixed(1)} s (generation ${result.from} dropped)`;
    if (json) logger.info(result, done);
    else process.stdout.write(`${done}\n`);
  } finally {
    lines.stop();
    progress.stop();
    await mongo.close();
  }
});

/** A rebuild replays from offset 0: refused when the topic has lost its start, warned when it may. */
async function refuseIncompleteTopic(admin: Admin, topic: string, logger: Logger): Promise<void> {
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) throw new StartRefused(`rebuild refused: the events topic ${topic} does not exist`);
    const retention = await readTopicRetention(admin, topic);
    refuseReplayFromStart(retention, 'rebuild');
    for (const problem of retention.settingProblems) logger.warn(`the events topic ${topic} does not keep every event: ${problem}`);
  } finally {
    await admin.disconnect();
  }
}
