import type { RegistryCountry } from './documents.ts';
import { foldSearchPrefix, SEARCHED_FIELD_CHARS } from './searchText.ts';

/**
 * Derived text, so cut like every searched field (decisions.md: the first 1,000 characters after
 * normalization): folded whole, a name of one event's worth of U+FDFA gave a key of millions of
 * characters, and its document passed its byte budget.
 */
const fold = (text: string | null | undefined): string => (text ? foldSearchPrefix(text, SEARCHED_FIELD_CHARS) : '');

/**
 * `sort=name` for people: Latin surname, then Latin name, each falling back to the native
 * spelling when the Latin one is null; folded so that case and diacritics do not reorder.
 * "\u0001" sorts below every printable character, so "Ozol" comes before "Ozola".
 */
export function personNameKey(person: {
  name: string | null;
  surname: string | null;
  nameEn: string | null;
  surnameEn: string | null;
}): string {
  return `${fold(person.surnameEn ?? person.surname)}\u0001${fold(person.nameEn ?? person.name)}`;
}

/** `sort=name` for competitions and clubs. */
export function nameKey(name: string | null): string {
  return fold(name);
}

/** `sort=approvedAt` with nulls last in both directions: sort on approvedRank first. */
export function approvedSortKeys(approvedAt: string | null): { approvedAt: string | null; approvedRank: 0 | 1 } {
  return { approvedAt, approvedRank: approvedAt === null ? 1 : 0 };
}

/** Folded name and alpha-2 code of a country, for the `country` filter (name or code). */
export function countryKeys(name: string | null | undefined, code: string | null | undefined): string[] {
  const keys: string[] = [];
  for (const value of [name, code]) {
    const folded = fold(value);
    if (folded !== '' && !keys.includes(folded)) keys.push(folded);
  }
  return keys;
}

/**
 * The key of a country id in `q.country` (format 2), where `countryId` matches it and `country`
 * the folded name and code, so that both filters lead the same indexes. It holds a tab, which no
 * folded text does (foldSearchText turns every run of white space into one space), so no
 * `country` value can equal it. An upper-case key would not do: folding lowercases before NFKD,
 * which turns some symbols into capitals ("🄸🄳" folds to "ID").
 */
export const countryIdKey = (id: number): string => `id\t${id}`;

/** `q.country` of a registry country (format 2): its folded name and code, then its id's key. */
export function countryFilterKeys(country: RegistryCountry): string[] {
  return country ? [...countryKeys(country.name, country.code), countryIdKey(country.id)] : [];
}

/** Canonical UTC form of an RFC 3339 date-time: string order is time order. */
export function canonicalInstant(dateTime: string): string {
  const ms = Date.parse(dateTime);
  if (Number.isNaN(ms)) throw new RangeError(`not a date-time: ${dateTime}`);
  return new Date(ms).toISOString();
}
