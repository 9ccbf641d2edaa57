import type { ReadModelLayout } from '../../services/readModel/readModelLayout.ts';
import type { RegistryState } from '../../schemas/enumValues.ts';
import { FilterBuilder } from './filterBuilder.ts';

/** What every registry listing filters on. */
export interface SharedRegistryQuery {
  readonly registryState: readonly RegistryState[];
}

/**
 * The base of a registry listing: the requested states only (so the internal buffer and GONE
 * tombstones never match), with the filters of the generation's `layout`.
 */
export function registryFilter(query: SharedRegistryQuery, layout: ReadModelLayout): FilterBuilder {
  return new FilterBuilder({ registryState: { $in: [...query.registryState] } }, layout);
}
