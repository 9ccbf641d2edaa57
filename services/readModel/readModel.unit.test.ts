import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  approvedSortKeys,
  canonicalInstant,
  classifyPeriod,
  countryFilterKeys,
  countryIdKey,
  countryKeys,
  escapeRegExp,
  foldSearchText,
  periodFilter,
  personNameKey,
  resolveRegistrationState,
  searchQuery,
  searchTokens,
} from './index.ts';

const competition = (over: {
  status?: 'open' | 'completed';
  regStatus?: 'open' | 'closed';
  opensAt?: string | null;
  deadline?: string | null;
}) => ({
  status: over.status ?? 'open',
  registration: { status: over.regStatus ?? 'open', opensAt: over.opensAt ?? null, deadline: over.deadline ?? null },
});

describe('resolveRegistrationState', () => {
  const c = competition({ opensAt: '2025-04-01', deadline: '2025-06-07' });
  it('is not_yet_open before the opening day, open on it', () => {
    expect(resolveRegistrationState(c, '2025-03-31')).toBe('not_yet_open');
    expect(resolveRegistrationState(c, '2025-04-01')).toBe('open');
  });
  it('is open on the deadline day, closed after it', () => {
    expect(resolveRegistrationState(c, '2025-06-07')).toBe('open');
    expect(resolveRegistrationState(c, '2025-06-08')).toBe('closed');
  });
  it('is closed when completed or when the organiser closed it, whatever the day', () => {
    expect(resolveRegistrationState(competition({ status: 'completed', opensAt: '2025-04-01' }), '2025-05-01')).toBe('closed');
    expect(resolveRegistrationState(competition({ regStatus: 'closed', opensAt: '2025-04-01' }), '2025-03-01')).toBe('closed');
  });
  it('is open without dates', () => {
    expect(resolveRegistrationState(competition({}), '1999-01-01')).toBe('open');
  });
});

describe('classifyPeriod and periodFilter', () => {
  const dates = { start: '2025-06-14', end: '2025-06-15' };
  it('classifies by calendar day, ongoing on both the first and the last day', () => {
    expect(classifyPeriod(dates, '2025-06-13')).toBe('upcoming');
    expect(classifyPeriod(dates, '2025-06-14')).toBe('ongoing');
    expect(classifyPeriod(dates, '2025-06-15')).toBe('ongoing');
    expect(classifyPeriod(dates, '2025-06-16')).toBe('past');
  });
  it('gives the matching Mongo filter', () => {
    expect(periodFilter('ongoing', '2025-06-14')).toEqual({ 'dates.start': { $lte: '2025-06-14' }, 'dates.end': { $gte: '2025-06-14' } });
    expect(periodFilter('upcoming', '2025-06-14')).toEqual({ 'dates.start': { $gt: '2025-06-14' } });
    expect(periodFilter('past', '2025-06-14')).toEqual({ 'dates.end': { $lt: '2025-06-14' } });
  });
});

describe('foldSearchText', () => {
  it('folds case, diacritics and letters NFKD keeps', () => {
    expect(foldSearchText('Jānis Bērziņš')).toBe('janis berzins');
    expect(foldSearchText('  ŁÓDŹ   Straße ')).toBe('lodz strasse');
    expect(foldSearchText('Ørsted Æbeltoft')).toBe('orsted aebeltoft');
    expect(foldSearchText('ﬁnal')).toBe('final');
  });
});

describe('searchTokens and searchQuery', () => {
  it('finds a substring query in the tokens and the text', () => {
    const keys = searchTokens(['Jānis', 'Ozols', null]);
    const query = searchQuery('OZO');
    expect(query).not.toBeNull();
    for (const token of query?.tokens ?? []) expect(keys.tokens).toContain(token);
    expect(keys.text).toContain(query?.text);
    expect(keys.text.split('\n')).toEqual(['janis', 'ozols']);
  });
  it('serves two-character queries with a prefix of the 3-grams or a final pair', () => {
    expect(searchQuery('Ja')).toEqual({ tokens: [], prefix: 'ja', text: 'ja' });
    const keys = searchTokens(['Jānis', 'Ozols']);
    expect(keys.tokens).toEqual(['ani', 'is', 'jan', 'ls', 'nis', 'ols', 'ozo', 'zol']);
    // Every pair of characters of each field begins a token: the prefix match finds all of them.
    for (const field of ['janis', 'ozols'])
      for (let i = 0; i + 2 <= field.length; i++) {
        const pair = field.slice(i, i + 2);
        expect(keys.tokens.some((token) => token.startsWith(pair))).toBe(true);
      }
  });
  it('rejects queries shorter than two characters after folding', () => {
    expect(searchQuery(' a ')).toBeNull();
  });
  it('adds a Latin spelling of Cyrillic fields', () => {
    const keys = searchTokens(['Иванов']);
    expect(keys.text.split('\n')).toEqual(['иванов', 'ivanov']);
    for (const token of searchQuery('ivan')?.tokens ?? []) expect(keys.tokens).toContain(token);
  });
  it('does not let a substring cross two fields', () => {
    const keys = searchTokens(['Anna', 'Berzina']);
    expect(keys.text.includes('na be')).toBe(false);
  });
  it('escapes regex characters', () => {
    expect(escapeRegExp('a.b*(c)')).toBe('a\\.b\\*\\(c\\)');
  });
});

describe('sort keys', () => {
  it('orders people by Latin surname, then Latin name, native spelling as fallback', () => {
    const keys = [
      personNameKey({ name: 'Anna', surname: 'Ozola', nameEn: null, surnameEn: null }),
      personNameKey({ name: 'Jānis', surname: 'Ozols', nameEn: 'Janis', surnameEn: 'Ozols' }),
      personNameKey({ name: 'Žanis', surname: 'Ozols', nameEn: null, surnameEn: null }),
      personNameKey({ name: 'Juris', surname: 'Ozol', nameEn: null, surnameEn: null }),
      personNameKey({ name: 'Alberts', surname: 'Zariņš', nameEn: 'Alberts', surnameEn: 'Abele' }),
    ];
    expect([...keys].sort()).toEqual([keys[4], keys[3], keys[0], keys[1], keys[2]]);
  });
  it('ranks null approval times last', () => {
    expect(approvedSortKeys(null)).toEqual({ approvedAt: null, approvedRank: 1 });
    expect(approvedSortKeys('2024-01-01T00:00:00.000Z').approvedRank).toBe(0);
  });
  it('folds country name and code', () => {
    expect(countryKeys('Latvia', 'LV')).toEqual(['latvia', 'lv']);
    expect(countryKeys(null, null)).toEqual([]);
  });
  it('keys a registry country by its folded name and code and by its id (format 2)', () => {
    expect(countryFilterKeys({ id: 117, name: 'Latvia', code: 'LV' })).toEqual(['latvia', 'lv', countryIdKey(117)]);
    expect(countryFilterKeys(null)).toEqual([]);
    expect(countryIdKey(117)).not.toBe(countryIdKey(11));
  });
  it('keys a country id so that no folded text equals it, whatever the text', () => {
    // Folding lowercases before NFKD, which makes capitals of some symbols: an upper-case key would not do.
    expect(foldSearchText('\u{1F138}\u{1F133}:428')).toBe('ID:428');
    for (const text of [
      '\u{1F138}\u{1F133}:428',
      `id\t428`,
      ' id\t428 ',
      'id 428',
      'ID\t428',
      '\u{1F138}\u{1F133}\t428',
      'id\u00a0428',
      'id\u2003428',
    ]) {
      expect(foldSearchText(text), JSON.stringify(text)).not.toBe(countryIdKey(428));
    }
    // The key holds a tab and no folded text does: near misses (letters, digits, spaces, tabs, marks, symbols that fold to capitals) and any text.
    const nearMiss = fc.string({
      unit: fc.constantFrom('i', 'd', 'I', 'D', '4', '2', '8', '\t', ' ', '\u00a0', '\u0301', '\u{1F138}', '\u{1F133}'),
    });
    fc.assert(
      fc.property(fc.oneof(nearMiss, fc.string({ unit: 'binary' })), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (text, id) => {
        expect(countryIdKey(id)).toContain('\t');
        expect(foldSearchText(text)).not.toContain('\t');
        expect(countryKeys(text, text)).not.toContain(countryIdKey(id));
      }),
      { numRuns: 500 },
    );
  });
  it('canonicalises instants to UTC', () => {
    expect(canonicalInstant('2024-01-12T10:05:00+02:00')).toBe('2024-01-12T08:05:00.000Z');
    expect(() => canonicalInstant('nope')).toThrow(RangeError);
  });
});
