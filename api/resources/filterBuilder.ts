import type { Document } from 'mongodb';
import type { QueryPlan, ReadListing, SortOrder } from '../../services/readModel/indexPlan.ts';
import type { ReadModelLayout } from '../../services/readModel/readModelLayout.ts';
import { matchClause } from './filterClauses.ts';

/**
 * A listing query: the filter and the plan (shape, hinted index, sort) it runs in. Built as a
 * plain document from the declared paths; a read takes it as the filter of its listing's
 * documents (`ListingQuery<Filter<DancerDocument>>`), which a plain document is.
 */
export interface ListingQuery<F = Document> {
  readonly filter: F;
  readonly plan: QueryPlan;
}

/**
 * Collects the AND-combined clauses of a listing query, remembering which query parameters
 * produced them, so that the index plan picks the shape from the filters really sent. The
 * declared filters and the plan are those of the layout of the generation queried.
 */
export class FilterBuilder {
  readonly #clauses: Document[];
  readonly #present = new Set<string>();
  readonly #layout: ReadModelLayout;

  /** `base`: the clause every query of the listing carries (`visible`, `registryState`); `layout`: the generation's (ReadModelView). */
  constructor(base: Document, layout: ReadModelLayout) {
    this.#clauses = [base];
    this.#layout = layout;
  }

  /** Adds the clauses of parameter `name` when its value is given (false and 0 are values). */
  add<T>(name: string, value: T | undefined, clauses: (value: T) => Document | Document[]): this {
    if (value === undefined) return this;
    const made = clauses(value);
    this.#clauses.push(...[made].flat());
    this.#present.add(name);
    return this;
  }

  /** Adds the clause of every filter the layout declares for `listing` that the query carries. */
  addDeclared(listing: ReadListing, query: Readonly<Record<string, unknown>>): this {
    for (const [name, declaration] of this.#layout.declaredFilters(listing)) {
      this.add(name, query[name], (value) => matchClause(declaration, value));
    }
    return this;
  }

  build(listing: ReadListing, sort: string, order: SortOrder): ListingQuery {
    const [first] = this.#clauses;
    const filter = this.#clauses.length === 1 && first ? first : { $and: [...this.#clauses] };
    return { filter, plan: this.#layout.chooseQueryShape(listing, this.#present, sort, order) };
  }
}
