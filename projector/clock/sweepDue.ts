import type { ProjectionConfig } from '../evolve/index.ts';
import { projectBatch } from '../write/projectBatch.ts';
import type { ProjectionStore } from '../write/projectionStore.ts';

export interface SweepResult {
  competitions: number;
  persons: number;
  coaches: number;
  clubs: number;
  rounds: number;
}

const PAGE = 500;

/**
 * Applies every transition due at or before `now`: finds documents by their `nextDueAt` (an
 * index, never a scan) and re-derives them at `now` through the same pipeline as events. The
 * derivation moves each document's nextDueAt past `now`, so the loop ends; a document that does
 * not move is reported rather than retried forever.
 */
export async function sweepDue(store: ProjectionStore, config: ProjectionConfig, now: Date): Promise<SweepResult> {
  const result: SweepResult = { competitions: 0, persons: 0, coaches: 0, clubs: 0, rounds: 0 };
  const seen = new Set<string>();
  for (;;) {
    const [competitions, dancers, judges, coaches, clubs] = await Promise.all([
      store.findDue('competitions', now, PAGE),
      store.findDue('dancers', now, PAGE),
      store.findDue('judges', now, PAGE),
      store.findDue('coaches', now, PAGE),
      store.findDue('clubs', now, PAGE),
    ]);
    const persons = [...new Set([...dancers, ...judges])];
    const fresh = [
      ...competitions.map((id) => `c|${id}`),
      ...persons.map((id) => `p|${id}`),
      ...coaches.map((id) => `k|${id}`),
      ...clubs.map((id) => `b|${id}`),
    ].filter((key) => !seen.has(key));
    if (fresh.length === 0) {
      if (competitions.length + persons.length + coaches.length + clubs.length > 0) {
        throw new Error(
          `clock: documents still due after re-derivation at ${now.toISOString()}: ${[...competitions, ...persons, ...coaches, ...clubs].slice(0, 5).join(', ')}`,
        );
      }
      return result;
    }
    for (const key of fresh) seen.add(key);
    await projectBatch({ events: [], due: { competitions, persons, coaches, clubs } }, store, config, now);
    result.competitions += competitions.length;
    result.persons += persons.length;
    result.coaches += coaches.length;
    result.clubs += clubs.length;
    result.rounds++;
  }
}
