const PLAIN_NAME = /^[A-Za-z0-9_.[\]-]{1,64}$/;
const MAX_ECHO = 40;

/**
 * How a parameter name appears at the start of a 400 detail: as written when it is a plain
 * name, otherwise JSON-quoted and shortened so a detail always reads `<name>: <explanation>`.
 */
export function parameterLabel(name: string): string {
  return PLAIN_NAME.test(name) ? name : quoteValue(name);
}

/** A caller-supplied value echoed in a detail: JSON-quoted, control characters escaped, shortened. */
export function quoteValue(value: string): string {
  const chars = Array.from(value);
  return JSON.stringify(chars.length > MAX_ECHO ? `${chars.slice(0, MAX_ECHO).join('')}…` : value);
}
