import type { Collection, Db, Document } from 'mongodb';
import type { Middleware } from 'koa';
import type { DataListing } from '../schemas/api/endpoints.ts';
import { collectionName, readMeta, type ReadModelMeta } from '../services/mongo/index.ts';
import type { ReadDocuments } from '../services/readModel/documents.ts';
import type { ReadListing } from '../services/readModel/indexPlan.ts';
import type { ReadModelLayout } from '../services/readModel/readModelLayout.ts';
import { TALLIES_COLLECTION } from '../services/readModel/facets.ts';
import { countMatching } from './countMatching.ts';
import { countFacets, readTallies, sumTallies, talliedKeys, type FacetCounts } from './facetCounts.ts';
import { boundedStalenessRead, type BoundedStalenessRead, type ReadTimers } from './boundedStalenessRead.ts';

/** The live generation as one request sees it: one meta read, shared by the cache and the route. */
export interface ReadModelView {
  readonly generation: number;
  /**
   * How the generation is laid out (the layout of the format meta records it was built in): the
   * API builds its clauses and picks its index by it, so it serves the older format right while an
   * upgrade builds the next. Null for a format this code does not serve (servedLayout: 503).
   */
  readonly layout: ReadModelLayout | null;
  readonly versions: Readonly<Record<string, number>>;
  /** Every event the projector had committed by this instant is applied (null: not known yet). */
  readonly currentAt: Date | null;
  /** The listing's collection in this generation, typed with its stored documents. */
  collection<L extends ReadListing>(listing: L): Collection<ReadDocuments[L]>;
  /**
   * How many documents of the listing match `filter`, within maxTimeMS: from the generation's
   * tallies when they hold and the filter is the listing's base alone (talliedKeys), otherwise
   * counted by the database (countMatching).
   */
  count(listing: ReadListing, filter: Document): Promise<number>;
  /** How many published competitions or registry records count under each facet key: the tallies when they hold, otherwise a read of them all. */
  facetCounts(listing: ReadListing): Promise<FacetCounts>;
  /** Time limit of each query of the request, passed as `maxTimeMS` so the database gives up too. */
  readonly maxTimeMS: number;
  /** The same view with a shorter time limit per query (a search's); this view when `maxTimeMS` is not shorter. */
  within(maxTimeMS: number): ReadModelView;
}

interface RequestScope {
  /** The source that stamped it (another source's view of the request reads afresh). */
  readonly owner: ReadModelSource;
  /** When the request arrived: the version it is served with was read at most maxAgeMs before. */
  readonly arrivedAt: number;
  view?: ReadModelView | Promise<ReadModelView>;
}

/**
 * Where a request's scope lives: on its Koa context, so nothing outlives the request. A
 * WeakMap keyed by the context did the same, but adding a short-lived key to it on every request
 * was a visible share of a cache hit's CPU.
 */
const SCOPE: unique symbol = Symbol('readModelScope');
interface Scoped {
  [SCOPE]?: RequestScope;
}

/**
 * decisions.md: a request may be served with a version read that started at most 50 ms before
 * it arrived, and a cache hit never waits for a read. While requests come in, a background read
 * starts every `refreshEveryMs` when reads are quick, sooner when they are slow (a busy
 * database, or a saturated event loop that reads their replies late), so that the next one
 * completes before the one at hand is `maxAgeMs` old, never within `minRefreshMs` of the last.
 */
export const VERSION_FRESHNESS = { maxAgeMs: 50, refreshEveryMs: 45, minRefreshMs: 10, idleAfterMs: 2_000 } as const;

export interface ReadModelSourceOptions {
  readonly readMeta?: (db: Db) => Promise<ReadModelMeta>;
  /** Virtual timers for tests; the real clock otherwise. */
  readonly timers?: ReadTimers;
  /** Each query's time limit in ms (config API_QUERY_TIMEOUT_MS); see ReadModelView.maxTimeMS. */
  readonly maxTimeMS: number;
}

/**
 * Per-request view of the read model's live generation. A request takes the meta document
 * (one `_id` lookup) from a read that started at most VERSION_FRESHNESS.maxAgeMs before it
 * arrived; the response cache's data version and the route's collections then come from that
 * same read, so a generation switch can never pair one generation's cache key with another's data.
 */
export class ReadModelSource {
  readonly #db: Db;
  readonly #meta: BoundedStalenessRead<ReadModelMeta>;
  readonly #now: () => number;
  readonly #maxTimeMS: number;
  #last: { meta: ReadModelMeta; view: ReadModelView } | undefined;
  /** The data version per endpoint's listings (the catalogue's arrays) of each view. */
  readonly #versionKeys = new WeakMap<ReadModelView, Map<readonly DataListing[], string>>();

  constructor(db: Db, options: ReadModelSourceOptions) {
    this.#db = db;
    this.#maxTimeMS = options.maxTimeMS;
    const read = options.readMeta ?? readMeta;
    this.#now = options.timers?.now ?? Date.now;
    this.#meta = boundedStalenessRead(() => read(db), { ...VERSION_FRESHNESS, ...(options.timers ? { timers: options.timers } : {}) });
  }

  /** Version reads started so far (tests check the bound on reads per second). */
  get versionReads(): number {
    return this.#meta.readsStarted;
  }

  /** Requests that waited for a version read (after idleness, or when reads fell behind the bound). */
  get versionWaits(): number {
    return this.#meta.callersWaited;
  }

  /** Stops the background version reads (they also stop by themselves after idleness). */
  close(): void {
    this.#meta.stop();
  }

  /** Stamps each request's arrival; mount before the rate limit, the response cache and the routes. */
  scope(): Middleware {
    return (ctx, next) => {
      (ctx as Scoped)[SCOPE] = { owner: this, arrivedAt: this.#now() };
      return next();
    };
  }

  /** The view of the request `ctx` (one meta read per request; outside a scoped request: a fresh one). */
  view(ctx: object): Promise<ReadModelView> {
    const view = this.viewNow(ctx);
    return view instanceof Promise ? view : Promise.resolve(view);
  }

  /**
   * `view(ctx)`, but the view itself when its version read is at hand, as it is for nearly every
   * request under load: a cache hit then takes its data version and freshness header without
   * waiting for a promise.
   */
  viewNow(ctx: object): ReadModelView | Promise<ReadModelView> {
    const scope = (ctx as Scoped)[SCOPE];
    if (scope?.owner !== this) return this.#viewAt(this.#now());
    scope.view ??= this.#viewAt(scope.arrivedAt);
    return scope.view;
  }

  /** `<generation>:<version of each listing>`: the cache's data version for an endpoint's listings (at once when the view is at hand). */
  currentVersion(ctx: object, listings: readonly DataListing[]): string | Promise<string> {
    const view = this.viewNow(ctx);
    return view instanceof Promise ? view.then((ready) => this.#versionOf(ready, listings)) : this.#versionOf(view, listings);
  }

  #versionOf(view: ReadModelView, listings: readonly DataListing[]): string {
    let keys = this.#versionKeys.get(view);
    if (!keys) this.#versionKeys.set(view, (keys = new Map<readonly DataListing[], string>()));
    let version = keys.get(listings);
    if (version === undefined) {
      version = [view.generation, ...listings.map((listing) => view.versions[listing] ?? 0)].join(':');
      keys.set(listings, version);
    }
    return version;
  }

  /**
   * One view per meta read, shared by every request served from it: a busy instance answers
   * thousands of cache hits per meta read, and building a view (and its version keys) for each
   * was a visible share of a hit's CPU.
   */
  #viewAt(arrivedAt: number): ReadModelView | Promise<ReadModelView> {
    const meta = this.#meta.get(arrivedAt);
    if (meta instanceof Promise) return meta.then((read) => this.#viewOf(read));
    return this.#viewOf(meta);
  }

  #viewOf(meta: ReadModelMeta): ReadModelView {
    if (this.#last?.meta === meta) return this.#last.view;
    const view = this.#viewWithin(meta, this.#maxTimeMS, new Map());
    this.#last = { meta, view };
    return view;
  }

  /** The view of `meta` whose queries run within `maxTimeMS`; its shorter-limited twins are made once per limit (`twins`). */
  #viewWithin(meta: ReadModelMeta, maxTimeMS: number, twins: Map<number, ReadModelView>): ReadModelView {
    const { generation, layout, versions, currentAt } = meta;
    const db = this.#db;
    const tallies = meta.talliesOf === generation ? collectionName(TALLIES_COLLECTION, generation) : null;
    const view: ReadModelView = {
      generation,
      layout,
      versions,
      currentAt,
      maxTimeMS,
      collection: <L extends ReadListing>(listing: L) => db.collection<ReadDocuments[L]>(collectionName(listing, generation)),
      count: (listing, filter) => {
        const tallied = tallies === null ? null : talliedKeys(listing, filter);
        return tallies !== null && tallied !== null
          ? sumTallies(db, tallies, listing, tallied, maxTimeMS)
          : countMatching(db, collectionName(listing, generation), filter, maxTimeMS);
      },
      facetCounts: (listing) =>
        tallies !== null
          ? readTallies(db, tallies, listing, maxTimeMS)
          : countFacets(db, collectionName(listing, generation), listing, maxTimeMS),
      within: (shorter) => {
        if (shorter >= maxTimeMS) return view;
        let twin = twins.get(shorter);
        if (!twin) twins.set(shorter, (twin = this.#viewWithin(meta, shorter, twins)));
        return twin;
      },
    };
    return view;
  }
}

// The catalogue names listings without importing services/; this fails to compile if the two lists drift.
const SAME_LISTINGS: [DataListing, ReadListing] extends [ReadListing, DataListing] ? true : never = true;
void SAME_LISTINGS;
