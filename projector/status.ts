// Status command: `npm run status` (in the image: node dist/projector/status.js). Consumer lag
// per partition from Kafka, the read model's format (and the build of its next generation), the events topic's
// retention and the latest rebuild (all of which
// work while the projector is down), then the running projector's own figures from its /metrics.
import { loadConfig } from '../services/config/index.ts';
import { createKafka, readTopicRetention } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { connectMongo, readMeta, readBuild, readRebuildProgress } from '../services/mongo/index.ts';
import { READ_MODEL_FORMAT, TALLIES_SINCE_FORMAT } from '../services/readModel/readModelFormat.ts';
import { runMain } from '../services/runMain.ts';
import { parsePrometheusText, readProjectorStatus } from './status/readProjectorStatus.ts';
import { formatLine, lagLines, projectorMetricsLines, rebuildLine, retentionLines, talliesLine } from './status/statusLines.ts';

runMain('status', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('status', 'warn');
  const mongo = await connectMongo(config.mongo.url, config.mongo.db);
  const admin = createKafka({ clientId: `${config.kafka.clientId}-status`, brokers: config.kafka.brokers, logger }).admin();
  await admin.connect();
  try {
    const { topic, dlqTopic, groupId } = config.kafka;
    const status = await readProjectorStatus({ admin, db: mongo.db, topic, dlqTopic, groupId });
    const out = lagLines(status, topic);
    const [meta, claim] = await Promise.all([readMeta(mongo.db), readBuild(mongo.db)]);
    out.push(formatLine(meta.format, READ_MODEL_FORMAT, claim, Date.now()), talliesLine(meta, TALLIES_SINCE_FORMAT));
    if (status.topicExists) out.push(...retentionLines(await readTopicRetention(admin, topic)));
    const rebuild = await readRebuildProgress(mongo.db);
    if (rebuild) out.push(rebuildLine(rebuild, Date.now()));
    out.push(...(await runningProjectorLines(`http://${config.opsHost}:${config.projector.opsPort}/metrics`)));
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await admin.disconnect();
    await mongo.close();
  }
});

/** What the running projector says of itself, or that it does not answer. */
async function runningProjectorLines(url: string): Promise<string[]> {
  try {
    const metrics = parsePrometheusText(await (await fetch(url, { signal: AbortSignal.timeout(2000) })).text());
    return projectorMetricsLines(url, metrics);
  } catch {
    return [`projector metrics not reachable at ${url} (is the projector running?)`];
  }
}
