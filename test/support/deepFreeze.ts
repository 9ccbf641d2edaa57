/**
 * Freezes a value and everything it holds. The fold's tests freeze every state they hand to
 * `evolve*`, `advancePerson` or a document derivation, so a rule that mutates what it was given
 * (or hands out a part of it that a caller then mutates) throws instead of passing by luck.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
