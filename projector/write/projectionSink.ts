import type { DomainEvent } from '../../services/events/index.ts';
import type { ApplyOutcome, EventSink } from '../consume/applyChunk.ts';
import type { Outcome, ProjectionConfig } from '../evolve/index.ts';
import { deriveDeferred, type DerivationFailed, type FinalListings } from './deriveDeferred.ts';
import { projectEvents } from './projectEvents.ts';
import { noneDeferred, replayChunk, type DeferredSubjects } from './replayChunk.ts';
import type { ProjectionStore } from './projectionStore.ts';

/** The consumer's sink: one projectEvents per chunk, at the clock's "now". */
export function projectionSink(store: ProjectionStore, config: ProjectionConfig, clock: () => Date): EventSink {
  return {
    async apply(events: DomainEvent[]): Promise<ApplyOutcome[]> {
      const { outcomes } = await projectEvents(events, store, config, clock());
      return consumerOutcomes(outcomes);
    },
  };
}

/**
 * A rebuild's sink, for a generation nobody reads until the switch: chunks write the aggregates'
 * states alone, and everything derived from them is derived once, from the final states, by
 * `deriveDeferred()` after the last chunk (see deriveDeferred; `final` hears of each listing
 * whose documents are all written). A rebuild that dies starts again from an empty generation,
 * so nothing half-derived is ever served.
 */
export function replaySink(
  store: ProjectionStore,
  config: ProjectionConfig,
  clock: () => Date,
): EventSink & { deriveDeferred(final?: FinalListings, failed?: DerivationFailed): Promise<Record<keyof DeferredSubjects, number>> } {
  const deferred = noneDeferred();
  return {
    async apply(events: DomainEvent[]): Promise<ApplyOutcome[]> {
      return consumerOutcomes(await replayChunk(events, store, config, deferred));
    },
    deriveDeferred: (final?: FinalListings, failed?: DerivationFailed) => deriveDeferred(deferred, store, config, clock(), final, failed),
  };
}

/**
 * An ignored event (valid but inapplicable, e.g. after deletion) still advanced its aggregate's
 * version: for the consumer it was applied.
 */
function consumerOutcomes(outcomes: readonly Outcome[]): ApplyOutcome[] {
  return outcomes.map((o) => (o === 'ignored' ? 'applied' : o));
}
