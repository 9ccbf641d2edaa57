import type { RegistryState } from '../../schemas/enumValues.ts';

/**
 * The public registry state of a stored one. Every query asks for REGISTRY or ARCHIVE only, so
 * anything else here (BUFFER, a GONE tombstone) is a query bug: fail rather than leak it.
 */
export function registryStateOf(stored: string): RegistryState {
  if (stored === 'REGISTRY' || stored === 'ARCHIVE') return stored;
  throw new Error(`internal registry state ${stored} reached a response`);
}
