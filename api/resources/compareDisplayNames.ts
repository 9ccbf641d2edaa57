/**
 * The order of names people read (countries, cities) in `/filters` and `/registry/filters`.
 *
 * One order for every caller: a response is cached and served to everyone, and the API has no
 * per-caller data, so it cannot follow each reader's language. It uses the CLDR root collation,
 * the common base every language's order refines ("Ústí nad Labem" before "Ventspils", "Łódź"
 * among the L's, "Cup 2" before "Cup 10"); a client wanting its own language's tailoring re-sorts
 * with its own collator. The locale is named: `und` (or none) would resolve to the process's
 * environment locale, and two instances started under different `LANG`s would order, and so
 * ETag, the same data differently. `en` is root with no tailoring.
 */
const ROOT_COLLATOR = new Intl.Collator('en', { usage: 'sort', sensitivity: 'variant', numeric: true });

/**
 * Collation order, then UTF-16 code units where the collator sees no difference (canonically
 * equivalent spellings, ignorable characters), so only identical strings compare equal.
 */
export function compareDisplayNames(a: string, b: string): number {
  return ROOT_COLLATOR.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
