import { quoteValue } from './parameterLabel.ts';

/**
 * Control characters that are not white space (C0 but tab, line feed, vertical tab, form feed
 * and carriage return; DEL; C1): no text a parameter names holds one, and a NUL reaching a
 * database regular expression or a log line is a fault there, not a search. White space is
 * trimmed and folded like a space, so it stays accepted.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/u;

/** The 400 explanation of a raw parameter value holding a control character, or undefined. */
export function controlCharacterProblem(text: string): string | undefined {
  return CONTROL_CHARACTERS.test(text) ? `must not contain control characters (got ${quoteValue(text)})` : undefined;
}
