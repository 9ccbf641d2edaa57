import type { RegistryState } from '../../schemas/enumValues.ts';
import { FilterBuilder } from './filterBuilder.ts';

/** What every registry listing filters on. */
export interface SharedRegistryQuery {
  readonly registryState: readonly RegistryState[];
}

/**
 * The base of a registry listing: the requested states only (so the internal buffer and GONE
 * tombstones never match), with the filters of read-model `format`.
 */
export function registryFilter(query: SharedRegistryQuery, format: number): FilterBuilder {
  return new FilterBuilder({ registryState: { $in: [...query.registryState] } }, format);
}
