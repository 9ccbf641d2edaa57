import type { RegistryException } from './types.ts';

// Rule 6: an exception holds a record in a reported state from its placement until it ends
// (lifted early or at `until`), and rule-driven transitions due meanwhile wait for its end.

export const exceptionEnd = (e: RegistryException): string => (e.endedAt !== null && e.endedAt < e.until ? e.endedAt : e.until);

/** The exception in force at an instant (the latest placed, should two overlap). */
export function exceptionAt(exceptions: readonly RegistryException[], instant: string): RegistryException | null {
  let found: RegistryException | null = null;
  for (const e of exceptions) {
    if (e.from <= instant && instant < exceptionEnd(e) && (found === null || e.from >= found.from)) found = e;
  }
  return found;
}

/** A rule-driven transition due at `instant` happens then, or at the end of an exception in force. */
export function deferPastExceptions(exceptions: readonly RegistryException[], instant: string): string {
  let at = instant;
  for (let e = exceptionAt(exceptions, at); e !== null; e = exceptionAt(exceptions, at)) at = exceptionEnd(e);
  return at;
}
