/**
 * Whether `text` has more than `max` characters as JSON Schema's `maxLength` counts them (Unicode
 * code points, so an emoji is one, as in the client's language). Stops counting past `max`.
 */
export function exceedsLength(text: string, max: number): boolean {
  // A code point is one or two UTF-16 units, so the unit count bounds the count either way.
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let count = 0;
  for (const _ of text) if (++count > max) return true;
  return false;
}
