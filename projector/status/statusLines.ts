import type { TopicRetention } from '../../services/kafka/index.ts';
import { describeStarts } from '../../services/kafka/index.ts';
import type { BuildClaim, RebuildProgress } from '../../services/mongo/index.ts';
import { parseLabels, type parsePrometheusText, type ProjectorStatus } from './readProjectorStatus.ts';

// The lines `npm run status` prints (projector/status.ts), from what it read.

type Samples = ReturnType<typeof parsePrometheusText>;

/** The live group's lag per partition, with its total and the dead letters. */
export function lagLines(status: ProjectorStatus, topic: string): string[] {
  const out = [
    `topic ${topic}${status.topicExists ? '' : ' (does not exist yet)'}   generation ${status.generation}   group ${status.group}`,
    'partition        end  committed        lag',
  ];
  for (const p of status.partitions) {
    out.push(
      `${String(p.partition).padStart(9)} ${String(p.end).padStart(10)} ${String(p.committed ?? '-').padStart(10)} ${String(p.lag).padStart(10)}`,
    );
  }
  out.push(
    `total lag ${status.totalLag} messages; dead letters ${status.deadLetters}${status.deadLetters > 0 ? ' (npm run dead-letters lists them)' : ''}`,
  );
  return out;
}

/** Whether a rebuild can still replay every event. */
export function retentionLines(retention: TopicRetention): string[] {
  const out = [
    retention.settingProblems.length === 0
      ? 'retention: the topic keeps every event'
      : `retention: the topic may delete events (${retention.settingProblems.join('; ')})`,
  ];
  if (retention.droppedStarts.length > 0)
    out.push(`retention: the topic has lost its first events (${describeStarts(retention.droppedStarts)}): a rebuild is refused`);
  return out;
}

/** The live generation's format against this code's, and the build (upgrade or rebuild) under way, if any. */
export function formatLine(live: number, code: number, claim: BuildClaim | null, nowMs: number): string {
  const upgrade = claim
    ? `; ${claim.owner} is building its next generation in format ${claim.format} (heard of ${Math.round((nowMs - claim.heartbeatAt.getTime()) / 1000)} s ago; progress on the rebuild line)`
    : live < code
      ? `; older than this code's ${code}: the next projector to start rebuilds it`
      : '';
  return live > code
    ? `read-model format ${live}, newer than this code's ${code}: this projector would refuse it`
    : `read-model format ${live}${upgrade}`;
}

/** Whether the API reads the live generation's counts from its tallies, and what to do when it does not. */
export function talliesLine(meta: { generation: number; format: number; talliesOf: number | null }, talliesSince: number): string {
  if (meta.talliesOf === meta.generation) return 'tallies: kept with the documents; the filter bodies and default totals read them';
  return meta.format < talliesSince
    ? `tallies: none in format ${meta.format}; the API counts the documents`
    : 'tallies: given up (a write without a transaction, docs/operating.md); the API counts the documents until a rebuild (npm run rebuild) counts them again';
}

export function rebuildLine(rebuild: RebuildProgress, nowMs: number): string {
  return rebuild.finishedAt
    ? `last rebuild (npm run rebuild): finished ${rebuild.finishedAt.toISOString()}, ${rebuild.events} events`
    : `rebuild (npm run rebuild) started ${rebuild.startedAt.toISOString()}: ${(100 * rebuild.ratio).toFixed(1)} % (${rebuild.events} events), last heard of ${Math.round((nowMs - rebuild.updatedAt.getTime()) / 1000)} s ago`;
}

/** The running projector's own figures, from its /metrics at `url`. */
export function projectorMetricsLines(url: string, metrics: Samples): string[] {
  const one = (name: string): number => metrics.get(name)?.[0]?.value ?? 0;
  const sum = (name: string): number => (metrics.get(name) ?? []).reduce((n, s) => n + s.value, 0);
  const batches = one('projector_batch_duration_seconds_count');
  return [
    `projector at ${url}:`,
    `  ready ${one('health_ready') === 1 ? 'yes' : 'no'}${one('projector_bootstrap_running') === 1 ? `; bootstrapping an empty read model, ${(100 * one('projector_rebuild_progress_ratio')).toFixed(0)} % replayed` : ''}`,
    `  consumer running ${one('projector_consumer_running') === 1 ? 'yes' : 'no'}; oldest unapplied event ${one('projector_lag_seconds').toFixed(1)} s old (0 when caught up)`,
    ...stalledPartitionLines(metrics),
    `  events applied ${sum('projector_events_applied_total')}, duplicates ${sum('projector_events_duplicate_total')}, version gaps ${sum('projector_version_gaps_total')}, dead-lettered ${sum('projector_events_dead_lettered_total')}`,
    `  batches ${batches}, mean ${batches ? ((1000 * one('projector_batch_duration_seconds_sum')) / batches).toFixed(1) : '-'} ms; database writes ${sum('projector_database_writes_total')}`,
    `  clock sweeps ${one('projector_clock_sweep_duration_seconds_count')}, transitions ${sum('projector_clock_transitions_total')}`,
  ];
}

/**
 * One line per partition the running projector reports stalled (work and no commit for the stall
 * time): its offset, how long since it last committed, and the error its chunk was last retried on.
 */
export function stalledPartitionLines(metrics: Samples): string[] {
  const byPartition = (name: string): Map<string, { labels: Record<string, string>; value: number }> =>
    new Map(
      (metrics.get(name) ?? []).map((sample) => {
        const labels = parseLabels(sample.labels);
        return [labels.partition ?? '', { labels, value: sample.value }];
      }),
    );
  const ages = byPartition('projector_partition_last_commit_age_seconds');
  const errors = byPartition('projector_partition_last_error_info');
  const stalled = [...byPartition('projector_partition_stalled')].filter(([, s]) => s.value === 1).map(([partition]) => partition);
  if (stalled.length === 0) return ['  stalled partitions: none'];
  return stalled
    .sort((a, b) => Number(a) - Number(b))
    .map((partition) => {
      const error = errors.get(partition)?.labels;
      const age = Math.round(ages.get(partition)?.value ?? 0);
      return `  partition ${partition} STALLED: not committed for ${age} s${error ? ` at offset ${error.offset}; last error ${error.error}` : '; no error (a chunk still running)'}`;
    });
}
