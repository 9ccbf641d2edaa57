// Status command: `npm run status [-- --json]` (in the image: node dist/projector/status.js).
// Consumer lag per partition from Kafka, the read model's format (and the build of its next
// generation), the events topic's retention and the latest rebuild (all of which work while the
// projector is down), then the running projector's own figures from its /metrics. `--json`
// prints the same as one JSON object, for scripts.
import { loadConfig } from '../services/config/index.ts';
import { createKafka, readTopicRetention } from '../services/kafka/index.ts';
import { connectMongo, readMeta, readBuild, readRebuildProgress } from '../services/mongo/index.ts';
import { READ_MODEL_FORMAT, TALLIES_SINCE_FORMAT } from '../services/readModel/readModelFormat.ts';
import { runMain } from '../services/runMain.ts';
import { commandInvocation, commandLogger, parseJsonFlag } from './commandOutput.ts';
import { rebuildPaceLine } from './status/rebuildPace.ts';
import { parsePrometheusText, readProjectorStatus } from './status/readProjectorStatus.ts';
import { formatLine, lagLines, projectorMetricsLines, rebuildLine, retentionLines, talliesLine } from './status/statusLines.ts';

const command = commandInvocation('status', process.argv[1]);

const USAGE = `usage: ${command.run}
           lag, dead letters, read model, retention, rebuild and the running projector
       ${command.withArgs('--json')}
           the same as one JSON object`;

runMain('status', async () => {
  const json = parseJsonFlag('status', USAGE, process.argv.slice(2));
  const config = loadConfig(process.env);
  const logger = commandLogger('status', { json, level: 'warn' });
  const mongo = await connectMongo(config.mongo.url, config.mongo.db);
  const admin = createKafka({
    clientId: `${config.kafka.clientId}-status`,
    brokers: config.kafka.brokers,
    security: config.kafka.security,
    logger,
  }).admin();
  await admin.connect();
  try {
    const { topic, dlqTopic, groupId } = config.kafka;
    const status = await readProjectorStatus({ admin, db: mongo.db, topic, dlqTopic, groupId });
    const [meta, claim] = await Promise.all([readMeta(mongo.db), readBuild(mongo.db)]);
    const retention = status.topicExists ? await readTopicRetention(admin, topic) : null;
    const rebuild = await readRebuildProgress(mongo.db);
    const url = `http://${config.opsHost}:${config.projector.opsPort}/metrics`;
    const metrics = await readMetrics(url);
    if (json) {
      const readModel = {
        generation: meta.generation,
        format: meta.format,
        codeFormat: READ_MODEL_FORMAT,
        talliesOf: meta.talliesOf,
        build: claim,
      };
      // The projector's own series and its health, not the runtime's.
      const own = metrics && Object.fromEntries([...metrics].filter(([name]) => /^(projector|health)_/.test(name)));
      const projector = { url, reachable: metrics !== null, metrics: own };
      process.stdout.write(`${JSON.stringify({ topic, ...status, readModel, retention, rebuild, projector })}\n`);
      return;
    }
    const out = lagLines(status, topic);
    out.push(formatLine(meta.format, READ_MODEL_FORMAT, claim, Date.now()), talliesLine(meta, TALLIES_SINCE_FORMAT));
    if (retention) out.push(...retentionLines(retention));
    if (rebuild) out.push(rebuildLine(rebuild, Date.now()), ...rebuildPaceLine(rebuild));
    out.push(
      ...(metrics ? projectorMetricsLines(url, metrics) : [`projector metrics not reachable at ${url} (is the projector running?)`]),
    );
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await admin.disconnect();
    await mongo.close();
  }
});

/** What the running projector says of itself, or null when it does not answer. */
async function readMetrics(url: string): Promise<ReturnType<typeof parsePrometheusText> | null> {
  try {
    return parsePrometheusText(await (await fetch(url, { signal: AbortSignal.timeout(2000) })).text());
  } catch {
    return null;
  }
}
