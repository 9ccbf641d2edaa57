import type { DomainEvent } from '../../services/events/index.ts';
import type { ApplyOutcome, EventSink } from '../consume/applyChunk.ts';
import type { ProjectionConfig } from '../evolve/index.ts';
import { projectBatch } from './projectBatch.ts';
import type { ProjectionStore } from './projectionStore.ts';

/** The consumer's sink: one projectBatch per chunk, at the clock's "now". */
export function projectionSink(store: ProjectionStore, config: ProjectionConfig, clock: () => Date): EventSink {
  return {
    async apply(events: DomainEvent[]): Promise<ApplyOutcome[]> {
      const { outcomes } = await projectBatch({ events }, store, config, clock());
      // An ignored event (valid but inapplicable, e.g. after deletion) still advanced its
      // aggregate's version: for the consumer it was applied.
      return outcomes.map((o) => (o === 'ignored' ? 'applied' : o));
    },
  };
}
