import type { ReadListing } from '../../services/readModel/indexPlan.ts';
import { runIsolating } from '../consume/runIsolating.ts';
import type { ProjectionConfig } from '../evolve/index.ts';
import { linksAfterFold, linksBeforeFold } from './batchLinks.ts';
import { loadBatch, noneDue } from './loadBatch.ts';
import { planCascade } from './planCascade.ts';
import type { ProjectionStore } from './projectionStore.ts';
import type { DeferredSubjects } from './replayChunk.ts';
import { sweepSubjects } from './sweepSubjects.ts';
import { writeCascade } from './writeCascade.ts';

/** Told of a subject whose derivation failed on its own content: it is left as it is, and the rest go on. */
export type DerivationFailed = (kind: keyof DeferredSubjects, id: string, error: unknown) => void;

/** The read listings a deferring replay's end has made final: nothing writes them again before the switch. */
export type FinalListings = (listings: readonly ReadListing[]) => void;

/** The kinds deriveDeferred derives, in order, and the read listings each one makes final. */
export const DERIVATION_ORDER: ReadonlyArray<{ readonly kind: keyof DeferredSubjects; readonly listings: readonly ReadListing[] }> = [
  { kind: 'competitions', listings: ['competitions'] },
  { kind: 'persons', listings: ['dancers', 'judges'] },
  { kind: 'coaches', listings: ['coaches'] },
  { kind: 'clubs', listings: ['clubs'] },
];

/**
 * Derives what a replay deferred, as clock sweeps (a sweep writes documents and facts, never
 * states), each kind once every document it reads from is stored (DERIVATION_ORDER): the
 * competitions, the persons (their documents and dancer link facts, which add the coaches and
 * clubs they reach to `deferred`), every coach forced (its staff facts written whether or not
 * they changed), then every club. In slices, so no load or transaction holds a whole registry; a
 * club derived with one slice of coaches is derived again, finally, once every staff fact is
 * stored. `final` hears of each listing as soon as its documents are all written (a rebuild
 * starts its index build then); `failed` of a subject whose derivation failed on its own content
 * (left underived, so one bad state cannot fail the whole rebuild). Returns how many of each kind
 * it derived.
 */
export async function deriveDeferred(
  deferred: DeferredSubjects,
  store: ProjectionStore,
  config: ProjectionConfig,
  now: Date,
  final: FinalListings = () => undefined,
  failed: DerivationFailed = (_, __, error) => {
    throw error;
  },
): Promise<Record<keyof DeferredSubjects, number>> {
  const derived = { competitions: 0, persons: 0, coaches: 0, clubs: 0 };
  for (const { kind, listings } of DERIVATION_ORDER) {
    derived[kind] = deferred[kind].size;
    for (const ids of slices(deferred[kind], DEFERRED_SLICE[kind])) {
      await runIsolating(
        ids,
        async (some) => {
          // Only the persons collect (the coaches and clubs their facts reach); the coaches' and
          // clubs' own sweeps derive them.
          if (kind === 'persons') await sweepPersonsCollecting(some, deferred, store, config, now);
          else await sweepSubjects({ [kind]: some }, store, config, now);
          return [...some];
        },
        (id, error) => Promise.resolve(void failed(kind, id, error)).then(() => id),
      );
    }
    deferred[kind].clear();
    final(listings);
  }
  return derived;
}

/**
 * A sweep of persons that writes their documents and facts and notes, instead of deriving, the
 * coaches and clubs those reach: each is derived once, after every person, by its own sweep.
 */
async function sweepPersonsCollecting(
  persons: readonly string[],
  deferred: DeferredSubjects,
  store: ProjectionStore,
  config: ProjectionConfig,
  now: Date,
): Promise<void> {
  const due = { ...noneDue, persons };
  // Every subject a fact reaches is collected, changed or not: nothing to compare with.
  const loaded = await loadBatch(store, [], due, false);
  const links = await linksBeforeFold(store, loaded, [], due, now, config);
  await linksAfterFold(store, loaded, links, new Set(persons), now, config);
  const plan = planCascade({ ...loaded, links, due, replayed: new Set() }, now, config);
  for (const id of plan.coaches.ids) deferred.coaches.add(id);
  for (const id of plan.clubs) deferred.clubs.add(id);
  await writeCascade({ ...plan, coaches: { ids: new Set(), forced: new Set() }, clubs: new Set() }, { store, config, now });
}

/**
 * Subjects derived together. A club loads the facts of its whole roster (a few dozen dancers and
 * their coaches), a coach a few, a person or a competition its state. The slices bound the heap
 * at the end of a rebuild, where the derivation runs (the peaks measured per slice size are in
 * docs/performance.md, "The rebuild"), for a small share of extra writes.
 */
const DEFERRED_SLICE = { competitions: 500, persons: 2_000, coaches: 1_000, clubs: 250 } as const;

function* slices(ids: ReadonlySet<string>, size: number): Generator<string[]> {
  const all = [...ids];
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}
