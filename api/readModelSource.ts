import { AsyncLocalStorage } from 'node:async_hooks';
import type { Collection, Db, Document } from 'mongodb';
import type { Context, Middleware } from 'koa';
import type { DataScope, EndpointName } from '../schemas/api/endpoints.ts';
import { collectionName, readMeta, type ReadModelMeta } from '../services/mongo/index.ts';
import type { ReadListing } from '../services/readModel/indexPlan.ts';
import { matchedEndpointOf } from './http/index.ts';
import { coalescedRead, type Scheduler } from './coalescedRead.ts';

/** The live generation as one request sees it: one meta read, shared by the cache and the route. */
export interface ReadModelView {
  readonly generation: number;
  readonly versions: Readonly<Record<string, number>>;
  collection(listing: ReadListing): Collection<Document>;
  /** Time limit of each query of the request, passed as `maxTimeMS` so the database gives up too. */
  readonly maxTimeMS: number;
}

/** The listings whose writes change each endpoint's responses (the cache's invalidation key). */
export const ENDPOINT_LISTINGS: Readonly<Record<EndpointName, readonly ReadListing[]>> = {
  competitions: ['competitions'],
  competition: ['competitions'],
  competitionCategories: ['competitions'],
  filters: ['competitions'],
  dancers: ['dancers'],
  coaches: ['coaches'],
  judges: ['judges'],
  clubs: ['clubs'],
  club: ['clubs', 'coaches'],
  registryFilters: ['dancers', 'coaches', 'judges', 'clubs'],
  openApiDocument: [],
};

const SCOPE_LISTINGS: Readonly<Record<DataScope, readonly ReadListing[]>> = {
  calendar: ['competitions'],
  registry: ['dancers', 'coaches', 'judges', 'clubs'],
  static: [],
};

interface RequestScope {
  readonly ctx: Context;
  view?: Promise<ReadModelView>;
}

export interface ReadModelSourceOptions {
  readonly readMeta?: (db: Db) => Promise<ReadModelMeta>;
  readonly schedule?: Scheduler;
  /** Each query's time limit in ms (config API_QUERY_TIMEOUT_MS); see ReadModelView.maxTimeMS. */
  readonly maxTimeMS: number;
}

/**
 * Per-request view of the read model's live generation. A request reads the meta document
 * (one `_id` lookup) at most once, lazily, joining the next coalesced read; the response
 * cache's data version and the route's collections then come from that same read, so a
 * generation switch can never pair one generation's cache key with another's data.
 */
export class ReadModelSource {
  readonly #db: Db;
  readonly #nextMeta: () => Promise<ReadModelMeta>;
  readonly #requests = new AsyncLocalStorage<RequestScope>();
  readonly #maxTimeMS: number;

  constructor(db: Db, options: ReadModelSourceOptions) {
    this.#db = db;
    this.#maxTimeMS = options.maxTimeMS;
    const read = options.readMeta ?? readMeta;
    this.#nextMeta = coalescedRead(() => read(db), options.schedule);
  }

  /** Opens the request's scope; mount before the response cache and the routes. */
  scope(): Middleware {
    return (ctx, next) => this.#requests.run({ ctx }, next);
  }

  /** The request's view (outside a request: a fresh one). */
  view(): Promise<ReadModelView> {
    const scope = this.#requests.getStore();
    if (!scope) return this.#readView();
    scope.view ??= this.#readView();
    return scope.view;
  }

  /**
   * `<generation>:<version of each listing the endpoint depends on>`. The matched endpoint
   * narrows the scope the cache passes (a dancer write leaves `/clubs` cached).
   */
  async currentVersion(scope: DataScope | EndpointName): Promise<string> {
    const view = await this.view();
    const ctx = this.#requests.getStore()?.ctx;
    const endpoint = ctx ? matchedEndpointOf(ctx)?.definition.name : undefined;
    const listings = endpoint ? ENDPOINT_LISTINGS[endpoint] : scope in SCOPE_LISTINGS ? SCOPE_LISTINGS[scope as DataScope] : ENDPOINT_LISTINGS[scope as EndpointName];
    return [view.generation, ...listings.map((listing) => view.versions[listing] ?? 0)].join(':');
  }

  async #readView(): Promise<ReadModelView> {
    const { generation, versions } = await this.#nextMeta();
    const db = this.#db;
    return { generation, versions, maxTimeMS: this.#maxTimeMS, collection: (listing) => db.collection(collectionName(listing, generation)) };
  }
}
