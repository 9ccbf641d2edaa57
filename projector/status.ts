// Status command: `npm run status` (in the image: node dist/projector/status.js). Consumer lag
// per partition from Kafka, the events topic's retention and the latest rebuild (all of which
// work while the projector is down), then the running projector's own figures from its /metrics.
import { loadConfig } from '../services/config/index.ts';
import { createKafka, describeStarts, readTopicRetention } from '../services/kafka/index.ts';
import { createLogger } from '../services/logger.ts';
import { connectMongo, readRebuildProgress } from '../services/mongo/index.ts';
import { runMain } from '../services/runMain.ts';
import { parsePrometheusText, readProjectorStatus } from './status/readProjectorStatus.ts';

runMain('status', async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('status', 'warn');
  const mongo = await connectMongo(config.mongo.url, config.mongo.db);
  const admin = createKafka({ clientId: `${config.kafka.clientId}-status`, brokers: config.kafka.brokers, logger }).admin();
  await admin.connect();
  try {
    const status = await readProjectorStatus({
      admin,
      db: mongo.db,
      topic: config.kafka.topic,
      dlqTopic: config.kafka.dlqTopic,
      groupId: config.kafka.groupId,
    });
    const out: string[] = [];
    out.push(
      `topic ${config.kafka.topic}${status.topicExists ? '' : ' (does not exist yet)'}   generation ${status.generation}   group ${status.group}`,
    );
    out.push('partition        end  committed        lag');
    for (const p of status.partitions) {
      out.push(
        `${String(p.partition).padStart(9)} ${String(p.end).padStart(10)} ${String(p.committed ?? '-').padStart(10)} ${String(p.lag).padStart(10)}`,
      );
    }
    out.push(
      `total lag ${status.totalLag} messages; dead letters ${status.deadLetters}${status.deadLetters > 0 ? ' (npm run dead-letters lists them)' : ''}`,
    );
    if (status.topicExists) {
      const retention = await readTopicRetention(admin, config.kafka.topic);
      out.push(
        retention.settingProblems.length === 0
          ? 'retention: the topic keeps every event'
          : `retention: the topic may delete events (${retention.settingProblems.join('; ')})`,
      );
      if (retention.droppedStarts.length > 0)
        out.push(`retention: the topic has lost its first events (${describeStarts(retention.droppedStarts)}): a rebuild is refused`);
    }
    const rebuild = await readRebuildProgress(mongo.db);
    if (rebuild)
      out.push(
        rebuild.finishedAt
          ? `last rebuild (npm run rebuild): finished ${rebuild.finishedAt.toISOString()}, ${rebuild.events} events`
          : `rebuild (npm run rebuild) started ${rebuild.startedAt.toISOString()}: ${(100 * rebuild.ratio).toFixed(1)} % (${rebuild.events} events), last heard of ${Math.round((Date.now() - rebuild.updatedAt.getTime()) / 1000)} s ago`,
      );

    const url = `http://${config.opsHost}:${config.projector.opsPort}/metrics`;
    try {
      const metrics = parsePrometheusText(await (await fetch(url, { signal: AbortSignal.timeout(2000) })).text());
      const one = (name: string): number => metrics.get(name)?.[0]?.value ?? 0;
      const sum = (name: string): number => (metrics.get(name) ?? []).reduce((n, s) => n + s.value, 0);
      const batches = one('projector_batch_duration_seconds_count');
      out.push(`projector at ${url}:`);
      out.push(
        `  ready ${one('health_ready') === 1 ? 'yes' : 'no'}${one('projector_bootstrap_running') === 1 ? `; bootstrapping an empty read model, ${(100 * one('projector_rebuild_progress_ratio')).toFixed(0)} % replayed` : ''}`,
      );
      out.push(
        `  consumer running ${one('projector_consumer_running') === 1 ? 'yes' : 'no'}; oldest unapplied event ${one('projector_lag_seconds').toFixed(1)} s old (0 when caught up)`,
      );
      out.push(
        `  events applied ${sum('projector_events_applied_total')}, duplicates ${sum('projector_events_duplicate_total')}, version gaps ${sum('projector_version_gaps_total')}, dead-lettered ${sum('projector_events_dead_lettered_total')}`,
      );
      out.push(
        `  batches ${batches}, mean ${batches ? ((1000 * one('projector_batch_duration_seconds_sum')) / batches).toFixed(1) : '-'} ms; database writes ${sum('projector_database_writes_total')}`,
      );
      out.push(
        `  clock sweeps ${one('projector_clock_sweep_duration_seconds_count')}, transitions ${sum('projector_clock_transitions_total')}`,
      );
    } catch {
      out.push(`projector metrics not reachable at ${url} (is the projector running?)`);
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await admin.disconnect();
    await mongo.close();
  }
});
