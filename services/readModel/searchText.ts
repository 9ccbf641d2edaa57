import { LRUCache } from 'lru-cache';
// Search keys: text folded so that case, diacritics and a few letter variants do not matter
// ("janis" finds "Jānis"), and n-grams of it so that a multikey index serves substring search.

/** Letters NFKD does not decompose, spelled the way a Latin keyboard user would type them. */
const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'n',
  ĸ: 'k',
};
const LETTER_PATTERN = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'gu');

/** Cyrillic to Latin (a plain scholarly-ish table; good enough to find "Ivanov" from "Иванов"). */
const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  є: 'ie',
  ж: 'zh',
  з: 'z',
  и: 'i',
  і: 'i',
  ї: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ў: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'iu',
  я: 'ia',
};
// Folding strips marks from Cyrillic too (й → и, ё → е), on both the stored and the searched side.
const CYRILLIC_PATTERN = /[\u0400-\u04ff]/u;

/** Lower case, NFKD, diacritics stripped, special letters spelled out, whitespace collapsed. */
export function foldSearchText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(LETTER_PATTERN, (letter) => LETTERS[letter] ?? letter)
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Latin spelling of folded Cyrillic text, or null when the text has no Cyrillic letter. */
export function transliterate(folded: string): string | null {
  if (!CYRILLIC_PATTERN.test(folded)) return null;
  let out = '';
  for (const ch of folded) out += CYRILLIC[ch] ?? ch;
  return out;
}

/**
 * The 3-grams of `text` and its last 2 characters. Every 2 characters of the text then begin
 * some token (a 3-gram, or the last pair), so a 2-character query is a prefix match on the
 * tokens (searchQuery) and needs no 2-grams of its own. Storing both 2- and 3-grams nearly
 * doubles the keys of the search index, whose build is much of a rebuild's index build
 * (measured: see docs/performance.md, The projector's writes).
 */
function addGrams(text: string, into: Set<string>): void {
  const chars = [...text];
  addTrigrams(chars, into);
  if (chars.length >= 2) into.add(chars.slice(-2).join(''));
}

/** Every 3 consecutive characters: the stored tokens and a query's must be cut the same way. */
function addTrigrams(chars: readonly string[], into: Set<string>): void {
  for (let i = 0; i + 3 <= chars.length; i++) into.add(chars.slice(i, i + 3).join(''));
}

/**
 * How much of a searched field `search` matches (decisions.md, "Hostile input": "derived text"):
 * its first 1,000 characters once folded (a name, a city, a venue), or its own number
 * (a description: searchedDescription).
 */
export const SEARCHED_FIELD_CHARS = 1_000;

/** A field searched up to another number of folded characters than SEARCHED_FIELD_CHARS. */
export interface SearchedText {
  readonly text: string;
  readonly chars: number;
}

export type SearchField = string | SearchedText | null | undefined;

/**
 * Search keys over the given fields: each field is folded and cut to its searched characters
 * (foldSearchPrefix; and, when it has Cyrillic letters, also transliterated); `tokens` are its
 * distinct 3-grams and final pairs (addGrams), `text` the folded variants joined by "\n" (a
 * substring never crosses two fields).
 */
export function searchTokens(fields: readonly SearchField[]): { tokens: string[]; text: string } {
  // The same names and titles are written again on every batch that touches their record, so
  // the keys are kept by their input, in a memo bounded in bytes: a long text's keys are many
  // times its size, and a bound in entries alone let a few such texts fill the projector's heap.
  const key = fields
    .map((f) => (f === null || f === undefined ? '\u0001' : typeof f === 'string' ? f : `\u0002${f.chars}\u0002${f.text}`))
    .join('\u0000');
  const known = tokenMemo.get(key);
  if (known) return { tokens: [...known.tokens], text: known.text };
  const keys = computeSearchTokens(fields);
  tokenMemo.set(key, keys);
  return { tokens: [...keys.tokens], text: keys.text };
}

/**
 * Bytes of a memo entry, roughly: UTF-16 strings at two bytes a unit, plus V8's header and array
 * slot of each token. An over-estimate is harmless; an under-estimate is what the bound is for.
 */
const TOKEN_OVERHEAD_BYTES = 40;
export const memoEntryBytes = (key: string, keys: { tokens: readonly string[]; text: string }): number =>
  2 * (key.length + keys.text.length) + keys.tokens.reduce((sum, token) => sum + 2 * token.length + TOKEN_OVERHEAD_BYTES, 0);

/** Bounds of the memo: its whole size, and the largest entry worth keeping (a bigger one is computed each time). */
export const TOKEN_MEMO_BYTES = { max: 32 * 1024 * 1024, maxEntry: 512 * 1024 } as const;

const tokenMemo = new LRUCache<string, { tokens: string[]; text: string }>({
  maxSize: TOKEN_MEMO_BYTES.max,
  maxEntrySize: TOKEN_MEMO_BYTES.maxEntry,
  // At least 1: the cache refuses a size of 0, which an empty name would give.
  sizeCalculation: (keys, key) => Math.max(1, memoEntryBytes(key, keys)),
});

/** How many bytes the memo holds by its own count (for the test that holds it to its bound). */
export const tokenMemoBytes = (): number => tokenMemo.calculatedSize;

/**
 * The part of a competition's `description` that `search` matches (decisions.md, "Hostile
 * input"): its first 20,000 characters once folded, so a description of a megabyte gives the
 * keys of a page, not a heap of them.
 */
export const SEARCHED_DESCRIPTION_CHARS = 20_000;
export function searchedDescription(description: string | null): SearchedText | null {
  return description === null ? null : { text: description, chars: SEARCHED_DESCRIPTION_CHARS };
}

/**
 * Folded characters past the ones kept that a prefix must give before its fold is trusted: the
 * fold of a prefix differs from the whole text's only near its end (a final sigma, whitespace
 * trimmed, marks cut from their letter).
 */
const FOLD_MARGIN_CHARS = 16;

/**
 * The first `chars` characters (code points) of `foldSearchText(text)`, folding no more of the
 * text than it takes: a prefix as long as the characters wanted, doubled until its fold gives
 * enough. Normalization can make one character many (U+FDFA is 18 under NFKD) or none (a
 * combining mark), so neither the cut before folding nor the one after is enough alone: time
 * and memory are linear in the part of the text read, and the result is at most `chars` long.
 */
export function foldSearchPrefix(text: string, chars: number): string {
  for (let take = chars + FOLD_MARGIN_CHARS; ; take *= 2) {
    const whole = take >= text.length;
    const folded = foldSearchText(whole ? text : text.slice(0, codePointEnd(text, take)));
    const end = codePointEnd(folded, chars);
    if (whole || end < folded.length - FOLD_MARGIN_CHARS) return end >= folded.length ? folded : folded.slice(0, end).trimEnd();
  }
}

/** The index in `text` after its first `count` code points (or its length). */
function codePointEnd(text: string, count: number): number {
  let index = 0;
  for (let seen = 0; seen < count && index < text.length; seen++) {
    const code = text.charCodeAt(index);
    index += code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
  }
  return index;
}

/**
 * At most this many keys per document: a backstop, as the cut fields (SEARCHED_FIELD_CHARS,
 * SEARCHED_DESCRIPTION_CHARS) give far fewer.
 */
export const MAX_SEARCH_TOKENS = 100_000;

function computeSearchTokens(fields: readonly SearchField[]): { tokens: string[]; text: string } {
  const variants: string[] = [];
  for (const field of fields) {
    if (field === null || field === undefined) continue;
    const folded = typeof field === 'string' ? foldSearchPrefix(field, SEARCHED_FIELD_CHARS) : foldSearchPrefix(field.text, field.chars);
    if (folded === '') continue;
    for (const variant of [folded, transliterate(folded)]) {
      if (variant !== null && !variants.includes(variant)) variants.push(variant);
    }
  }
  const grams = new Set<string>();
  for (const variant of variants) addGrams(variant, grams);
  // Kept in field order, so the names' keys come before the description's.
  return { tokens: [...grams].slice(0, MAX_SEARCH_TOKENS).sort(), text: variants.join('\n') };
}

/**
 * What a `search` value must match in `s.tokens`, then as a substring of `s.text` (escape it with
 * escapeRegExp): of 3 characters or more, every 3-gram (`tokens`, for `$all`); of 2, a token
 * beginning with them (`prefix`, a range the index serves). Documents written with the 2-grams
 * of earlier versions match both forms too. Null when fewer than 2 characters remain.
 */
export function searchQuery(search: string): { tokens: string[]; prefix: string | null; text: string } | null {
  const text = foldSearchText(search);
  const chars = [...text];
  if (chars.length < 2) return null;
  if (chars.length === 2) return { tokens: [], prefix: text, text };
  const tokens = new Set<string>();
  addTrigrams(chars, tokens);
  return { tokens: [...tokens].sort(), prefix: null, text };
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
