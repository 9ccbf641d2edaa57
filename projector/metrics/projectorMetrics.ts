import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { UnappliedEvents } from '../consume/unappliedEvents.ts';

export type ProjectorMetrics = ReturnType<typeof createProjectorMetrics>;

/** Everything an operator watches on the projector; `status` prints the same figures. */
export function createProjectorMetrics(registry: Registry, clock: () => number = Date.now) {
  const registers = [registry];
  const unapplied = new UnappliedEvents();
  return {
    /** What the consumer has fetched and not applied; `projector_lag_seconds` is read from it at scrape time. */
    unapplied,
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
    rebuildProgress: new Gauge({
      name: 'projector_rebuild_progress_ratio',
      help: 'Share of the topic replayed by a running rebuild (0..1)',
      registers,
    }),
    rebuildEvents: new Gauge({ name: 'projector_rebuild_events', help: 'Events replayed by the running rebuild', registers }),
  };
}
