export { parseQuery } from './parseQuery.ts';
export type { ParseQueryResult } from './parseQuery.ts';
export { canonicalQueryKey } from './canonicalQueryKey.ts';
export { parameterLabel, quoteValue } from './parameterLabel.ts';
export { REMOVED_PARAMETERS } from './removedParameters.ts';
