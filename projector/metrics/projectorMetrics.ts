import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { PartitionProgress, STALL_AFTER_MS } from './partitionProgress.ts';
import { UnappliedEvents } from './unappliedEvents.ts';

export type ProjectorMetrics = ReturnType<typeof createProjectorMetrics>;

type Registers = Registry[];

export interface ProjectorMetricsOptions {
  /** How long a partition with work may go without a commit before it counts as stalled; default STALL_AFTER_MS. */
  stallAfterMs?: number;
}

/** Everything an operator watches on the projector; `status` prints the same figures. */
export function createProjectorMetrics(registry: Registry, clock: () => number = Date.now, options: ProjectorMetricsOptions = {}) {
  const registers = [registry];
  const unapplied = new UnappliedEvents();
  // A duration, not a domain time: the monotonic clock, which neither a pinned test clock nor a stepping wall clock moves.
  const partitions = new PartitionProgress(() => performance.now(), options.stallAfterMs ?? STALL_AFTER_MS);
  // Registered in this order, which is the order of the /metrics page.
  return {
    /** What the consumer has fetched and not applied; `projector_lag_seconds` is read from it at scrape time. */
    unapplied,
    /** Per partition, since when it has not committed and its last error; the stall gauges, readiness and status read it. */
    partitions,
    ...eventOutcomeMetrics(registers),
    ...consumerMetrics(registers, unapplied, clock),
    ...partitionStallMetrics(registers, partitions),
    ...clockAndHealthMetrics(registers),
    ...replayMetrics(registers),
  };
}

/** What became of each event: applied, duplicate, applied over a version gap, dead-lettered. */
function eventOutcomeMetrics(registers: Registers) {
  return {
    eventsApplied: new Counter({
      name: 'projector_events_applied_total',
      help: 'Events folded into the read model',
      labelNames: ['type'],
      registers,
    }),
    eventsDuplicate: new Counter({
      name: 'projector_events_duplicate_total',
      help: 'Events ignored as duplicates (eventId seen or aggregateVersion at or below the applied one)',
      labelNames: ['type'],
      registers,
    }),
    versionGaps: new Counter({
      name: 'projector_version_gaps_total',
      help: 'Events applied although aggregateVersion skipped ahead',
      labelNames: ['type'],
      registers,
    }),
    eventsDeadLettered: new Counter({
      name: 'projector_events_dead_lettered_total',
      help: 'Messages sent to the dead-letter topic',
      labelNames: ['type'],
      registers,
    }),
  };
}

/** How far behind the consumer is and what its batches cost. */
function consumerMetrics(registers: Registers, unapplied: UnappliedEvents, clock: () => number) {
  return {
    consumerLagMessages: new Gauge({
      name: 'projector_consumer_lag_messages',
      help: 'Messages in the partition not yet applied',
      labelNames: ['partition'],
      registers,
    }),
    lagSeconds: new Gauge({
      name: 'projector_lag_seconds',
      help: 'Age of the oldest event fetched but not yet applied, from its append to the log (0 when caught up)',
      registers,
      collect() {
        this.set(unapplied.ageSeconds(clock()));
      },
    }),
    batchDuration: new Histogram({
      name: 'projector_batch_duration_seconds',
      help: 'Time to validate, fold and durably write one batch',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    batchSize: new Histogram({
      name: 'projector_batch_messages',
      help: 'Messages per processed batch',
      buckets: [1, 10, 50, 100, 500, 1000, 5000],
      registers,
    }),
    databaseWrites: new Counter({
      name: 'projector_database_writes_total',
      help: 'Document writes issued (one per document per batch)',
      labelNames: ['collection'],
      registers,
    }),
  };
}

/**
 * Per partition with work: whether it has gone `stallAfterMs` without a commit, how long, and the
 * error its chunk was last retried on. Set at scrape time; a partition caught up or handed to
 * another instance has no series.
 */
function partitionStallMetrics(registers: Registers, partitions: PartitionProgress) {
  const stalled = new Gauge({
    name: 'projector_partition_stalled',
    help: 'Per partition this instance consumes with work to do: 1 when it has not committed for the stall time (60 s), else 0',
    labelNames: ['partition'],
    registers,
    collect() {
      this.reset();
      for (const p of partitions.partitions())
        this.set({ partition: String(p.partition) }, p.ageSeconds * 1000 >= partitions.stallAfterMs ? 1 : 0);
    },
  });
  const age = new Gauge({
    name: 'projector_partition_last_commit_age_seconds',
    help: 'Per partition with work to do: seconds since it last committed (or since it had work, when later)',
    labelNames: ['partition'],
    registers,
    collect() {
      this.reset();
      for (const p of partitions.partitions()) this.set({ partition: String(p.partition) }, p.ageSeconds);
    },
  });
  const lastError = new Gauge({
    name: 'projector_partition_last_error_info',
    help: 'Per partition whose chunk failed since its last commit: 1, labelled with the offset retried and the error (cut to 200 characters)',
    labelNames: ['partition', 'offset', 'error'],
    registers,
    collect() {
      this.reset();
      for (const p of partitions.partitions())
        if (p.lastError !== null) this.set({ partition: String(p.partition), offset: p.offset, error: p.lastError }, 1);
    },
  });
  return { partitionStalled: stalled, partitionCommitAge: age, partitionLastError: lastError };
}

/** The clock's sweeps, and what the alerts on a stopped consumer or a failed derivation read. */
function clockAndHealthMetrics(registers: Registers) {
  return {
    clockSweepDuration: new Histogram({
      name: 'projector_clock_sweep_duration_seconds',
      help: 'Duration of a clock sweep',
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers,
    }),
    clockTransitions: new Counter({
      name: 'projector_clock_transitions_total',
      help: 'Documents changed by clock sweeps',
      labelNames: ['collection'],
      registers,
    }),
    consumerRunning: new Gauge({ name: 'projector_consumer_running', help: '1 while the consumer is running', registers }),
    derivationsFailed: new Counter({
      name: 'projector_derivations_failed_total',
      help: 'Subjects whose documents a clock sweep or a rebuild could not derive from their state (left as they were)',
      labelNames: ['kind'],
      registers,
    }),
    consumerRestarts: new Counter({
      name: 'projector_consumer_restarts_total',
      help: 'Consumers started again by the projector after kafkajs stopped them for good',
      registers,
    }),
  };
}

/** A rebuild's or a bootstrap's replay of the events topic, and whether the topic still allows one. */
function replayMetrics(registers: Registers) {
  return {
    rebuildProgress: new Gauge({
      name: 'projector_rebuild_progress_ratio',
      help: 'Share of the topic replayed by a running rebuild (0..1)',
      registers,
    }),
    rebuildEvents: new Gauge({ name: 'projector_rebuild_events', help: 'Events replayed by the running rebuild', registers }),
    // Set around the bootstrap of an empty read model, when the operators' port is already open
    // but the consumer and the clock do not run yet: the alerts on those leave such an instance alone.
    bootstrapRunning: new Gauge({
      name: 'projector_bootstrap_running',
      help: '1 while this instance fills an empty read model from the events topic (its consumer and clock start after)',
      registers,
    }),
    readModelFormat: new Gauge({
      name: 'projector_read_model_format',
      help: 'Read-model format of the live generation (of="live") and the one this projector writes (of="code"); they differ while an upgrade runs',
      labelNames: ['of'],
      registers,
    }),
    formatUpgrade: new Gauge({
      name: 'projector_format_upgrade',
      help: 'During a read-model format upgrade, 1 for the state this instance is in: building (the rebuild gauges show its progress) or waiting (for the instance that builds)',
      labelNames: ['state'],
      registers,
    }),
    eventsTopicKeepsEverything: new Gauge({
      name: 'projector_events_topic_keeps_everything',
      help: '1 when the events topic has retention.ms and retention.bytes -1 and no compaction, so a rebuild can always replay it whole',
      registers,
    }),
    eventsTopicComplete: new Gauge({
      name: 'projector_events_topic_complete',
      help: '1 when every partition of the events topic still starts at offset 0 (a rebuild replays every event); 0 when some lost its first events',
      registers,
    }),
  };
}
