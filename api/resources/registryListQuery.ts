import type { RegistryState } from '../../schemas/enumValues.ts';
import { FilterBuilder } from './filterBuilder.ts';
import { searchClause } from './filterClauses.ts';

/** What every registry listing filters on. */
export interface SharedRegistryQuery {
  readonly registryState: readonly RegistryState[];
  readonly search?: string;
}

/**
 * The base of a registry listing: the requested states only (so the internal buffer and GONE
 * tombstones never match) and the name search.
 */
export function registryFilter(query: SharedRegistryQuery): FilterBuilder {
  return new FilterBuilder({ registryState: { $in: [...query.registryState] } }).add('search', query.search, searchClause);
}
