import { runIsolating } from '../consume/runIsolating.ts';
import type { ProjectionConfig } from '../evolve/index.ts';
import type { DerivationFailed } from '../write/deriveDeferred.ts';
import type { ProjectionStore } from '../write/projectionStore.ts';
import { sweepSubjects } from '../write/sweepSubjects.ts';

export interface SweepResult {
  competitions: number;
  persons: number;
  coaches: number;
  clubs: number;
  rounds: number;
}

const PAGE = 500;

const KINDS = { c: 'competitions', p: 'persons', k: 'coaches', b: 'clubs' } as const;

/**
 * Applies every transition due at or before `now`: finds documents by their `nextDueAt` (an
 * index, never a scan) and re-derives them at `now` through the same pipeline as events. The
 * derivation moves each document's nextDueAt past `now`, so the loop ends; a document that does
 * not move is reported rather than retried forever. A subject whose derivation fails on its own
 * content is handed to `failed` and left due, so one bad document cannot stop every transition.
 */
export async function sweepDue(
  store: ProjectionStore,
  config: ProjectionConfig,
  now: Date,
  failed: DerivationFailed = (_, __, error) => {
    throw error;
  },
): Promise<SweepResult> {
  const result: SweepResult = { competitions: 0, persons: 0, coaches: 0, clubs: 0, rounds: 0 };
  const seen = new Set<string>();
  const skipped = new Set<string>();
  for (;;) {
    const [competitions, dancers, judges, coaches, clubs] = await Promise.all([
      store.findDue('competitions', now, PAGE),
      store.findDue('dancers', now, PAGE),
      store.findDue('judges', now, PAGE),
      store.findDue('coaches', now, PAGE),
      store.findDue('clubs', now, PAGE),
    ]);
    const persons = [...new Set([...dancers, ...judges])];
    const found = [
      ...competitions.map((id) => `c|${id}`),
      ...persons.map((id) => `p|${id}`),
      ...coaches.map((id) => `k|${id}`),
      ...clubs.map((id) => `b|${id}`),
    ];
    const fresh = found.filter((key) => !seen.has(key));
    if (fresh.length === 0) {
      const stuck = [...competitions, ...persons, ...coaches, ...clubs].filter((id) => !skipped.has(id));
      if (stuck.length > 0) {
        throw new Error(`clock: documents still due after re-derivation at ${now.toISOString()}: ${stuck.slice(0, 5).join(', ')}`);
      }
      return result;
    }
    for (const key of fresh) seen.add(key);
    await runIsolating(
      found.filter((key) => !skipped.has(key.slice(2))),
      async (keys) => {
        await sweepSubjects(dueOf(keys), store, config, now);
        return [...keys];
      },
      (key, error) => {
        skipped.add(key.slice(2));
        failed(KINDS[key[0] as keyof typeof KINDS], key.slice(2), error);
        return Promise.resolve(key);
      },
    );
    result.competitions += competitions.length;
    result.persons += persons.length;
    result.coaches += coaches.length;
    result.clubs += clubs.length;
    result.rounds++;
  }
}

/** `c|id`, `p|id`, `k|id`, `b|id` keys back to the subjects a sweep derives. */
function dueOf(keys: readonly string[]): Record<(typeof KINDS)[keyof typeof KINDS], string[]> {
  const due = { competitions: [] as string[], persons: [] as string[], coaches: [] as string[], clubs: [] as string[] };
  for (const key of keys) due[KINDS[key[0] as keyof typeof KINDS]].push(key.slice(2));
  return due;
}
