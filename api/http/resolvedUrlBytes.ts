/** What the memo holds per entry beyond its strings: the LRU node, the entry and query objects, the shared endpoint's reference. */
const ENTRY_OVERHEAD_BYTES = 512;
/** A string's header and alignment, or a number's or boolean's slot. */
const VALUE_OVERHEAD_BYTES = 40;

/**
 * An upper estimate of the heap a resolved URL keeps in the memo: its key and every value of its
 * validated query, counted as two-byte strings. A list counts item by item, because a URL of
 * a thousand short `type` items keeps a thousand strings, at several times the URL's own bytes.
 */
export function resolvedUrlBytes(url: string, query: unknown): number {
  let bytes = ENTRY_OVERHEAD_BYTES + 2 * url.length;
  if (typeof query === 'object' && query !== null) {
    for (const value of Object.values(query)) bytes += valueBytes(value);
  }
  return bytes;
}

function valueBytes(value: unknown): number {
  if (typeof value === 'string') return VALUE_OVERHEAD_BYTES + 2 * value.length;
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + valueBytes(item), VALUE_OVERHEAD_BYTES);
  return VALUE_OVERHEAD_BYTES;
}
