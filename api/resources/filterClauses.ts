import type { Document } from 'mongodb';
import { countryIdKey, escapeRegExp, foldSearchText, searchQuery } from '../../services/readModel/index.ts';
import type { FilterDeclaration } from '../../services/readModel/listingFilters.ts';

/**
 * `text` as a regular expression that matches it literally: metacharacters escaped, and every
 * control character written as a `\xHH` escape, so no raw NUL or other control byte reaches
 * the database's `$regex` (where a NUL is an error, not a character). Query validation refuses
 * control characters already; this keeps the clause safe whatever calls it.
 */
export function literalPattern(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return escapeRegExp(text).replace(/[\u0000-\u001f\u007f-\u009f]/gu, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Matches no document (a search that folds to fewer than 2 characters finds nothing). */
const NOTHING: Document = { _id: { $in: [] } };

/**
 * Substring search: every 3-gram, or for 2 characters a token beginning with them, in the
 * multikey tokens at `tokensPath` (the index narrows), then the folded text as a plain substring
 * of the `text` beside them (the exact check). Regex metacharacters in the input are escaped, so
 * `a.b` or `(x` match literally.
 */
function searchClause(tokensPath: string, search: string): Document {
  const wanted = searchQuery(search);
  if (wanted === null) return NOTHING;
  // The prefix as a range of one element, not an anchored regex: the same index bounds, but
  // SecantusDB also ran the regex on every key in them, which made a 2-character search of the
  // dancers twice as slow (docs/performance.md). Strings compare by UTF-8 bytes, so the
  // greatest code point closes the range.
  const tokens =
    wanted.prefix === null ? { $all: wanted.tokens } : { $elemMatch: { $gte: wanted.prefix, $lte: `${wanted.prefix}\u{10FFFF}` } };
  const textPath = tokensPath.replace(/tokens$/, 'text');
  return { [tokensPath]: tokens, [textPath]: { $regex: literalPattern(wanted.text) } };
}

/** Equality on a folded key (case- and diacritic-insensitive exact match, e.g. `country`). */
function foldedEquals(path: string, value: string): Document {
  return { [path]: foldSearchText(value) };
}

/** Case- and diacritic-insensitive prefix match on a folded key (an anchored, escaped regex). */
function foldedPrefix(path: string, value: string): Document {
  return { [path]: { $regex: `^${literalPattern(foldSearchText(value))}` } };
}

function anyOf(path: string, values: readonly unknown[]): Document {
  return { [path]: { $in: [...values] } };
}

/** The clause of a declared filter (LISTING_FILTERS) for a validated query value. */
export function matchClause(declaration: FilterDeclaration, value: unknown): Document {
  switch (declaration.match) {
    case 'equals':
      return { [declaration.path]: value };
    case 'folded':
      return foldedEquals(declaration.path, String(value));
    case 'foldedPrefix':
      return foldedPrefix(declaration.path, String(value));
    case 'anyOf':
      return anyOf(declaration.path, value as readonly unknown[]);
    case 'search':
      return searchClause(declaration.path, String(value));
    case 'countryIdKey':
      return { [declaration.path]: countryIdKey(Number(value)) };
  }
}
