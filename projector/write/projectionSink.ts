import type { DomainEvent } from '../../services/events/index.ts';
import type { ApplyOutcome, EventSink } from '../consume/applyChunk.ts';
import type { Outcome, ProjectionConfig } from '../evolve/index.ts';
import { deriveDeferred, projectBatch, type DeferredSubjects } from './projectBatch.ts';
import type { ProjectionStore } from './projectionStore.ts';

/** The consumer's sink: one projectBatch per chunk, at the clock's "now". */
export function projectionSink(store: ProjectionStore, config: ProjectionConfig, clock: () => Date): EventSink {
  return {
    async apply(events: DomainEvent[]): Promise<ApplyOutcome[]> {
      const { outcomes } = await projectBatch({ events }, store, config, clock());
      return consumerOutcomes(outcomes);
    },
  };
}

/**
 * A rebuild's sink, for a generation nobody reads until the switch: chunks write states, own
 * documents and facts, and the coaches and clubs they reach are derived once, by
 * `deriveDeferred()` after the last chunk (a rebuild that dies starts again from an empty
 * generation, so nothing half-derived is ever served).
 */
export function replaySink(
  store: ProjectionStore,
  config: ProjectionConfig,
  clock: () => Date,
): EventSink & { deriveDeferred(): Promise<{ coaches: number; clubs: number }> } {
  const deferred: DeferredSubjects = { coaches: new Set(), clubs: new Set() };
  return {
    async apply(events: DomainEvent[]): Promise<ApplyOutcome[]> {
      const { outcomes } = await projectBatch({ events }, store, config, clock(), deferred);
      return consumerOutcomes(outcomes);
    },
    async deriveDeferred() {
      const counts = { coaches: deferred.coaches.size, clubs: deferred.clubs.size };
      await deriveDeferred(deferred, store, config, clock());
      deferred.coaches.clear();
      deferred.clubs.clear();
      return counts;
    },
  };
}

/**
 * An ignored event (valid but inapplicable, e.g. after deletion) still advanced its aggregate's
 * version: for the consumer it was applied.
 */
function consumerOutcomes(outcomes: readonly Outcome[]): ApplyOutcome[] {
  return outcomes.map((o) => (o === 'ignored' ? 'applied' : o));
}
