import { describe, expect, it } from 'vitest';
import { parseQuery } from './parseQuery.ts';
import type { EndpointName } from '../../schemas/api/endpoints.ts';

const UUID = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

function details(endpoint: EndpointName, query: string): string[] {
  const result = parseQuery(endpoint, query);
  if (result.ok) throw new Error(`expected ${query} to be rejected`);
  return result.details;
}

function accepted<E extends EndpointName>(endpoint: E, query: string) {
  const result = parseQuery(endpoint, query);
  if (!result.ok) throw new Error(`expected ${query} to pass: ${result.details.join(' | ')}`);
  return result.query;
}

describe('parseQuery: defaults and typed values', () => {
  it('fills the documented defaults of /competitions', () => {
    expect(accepted('competitions', '')).toEqual({ sort: 'startDate', order: 'asc', page: 1, limit: 20 });
  });

  it('fills registryState=REGISTRY, sort=name on the registry listings', () => {
    for (const endpoint of ['dancers', 'coaches', 'judges', 'clubs'] as const) {
      expect(accepted(endpoint, '')).toEqual({ registryState: ['REGISTRY'], sort: 'name', order: 'asc', page: 1, limit: 20 });
    }
  });

  it('accepts a leading question mark', () => {
    expect(accepted('competitions', '?page=3').page).toBe(3);
  });

  it('types every kind of competition parameter', () => {
    const query = accepted(
      'competitions',
      'search=+Riga+&country=lv&countryId=7&city=Rig&status=open&type=cup,championship&registrationStatus=closed' +
        '&registrationOpen=false&period=ongoing&dateFrom=2024-02-29&dateTo=2024-02-29&updatedSince=2025-01-31T10:00:00%2B02:00' +
        '&include=categories,entriesCount&sort=updatedAt&order=desc&page=007&limit=100',
    );
    expect(query).toEqual({
      search: 'Riga',
      country: 'lv',
      countryId: 7,
      city: 'Rig',
      status: ['open'],
      type: ['cup', 'championship'],
      registrationStatus: 'closed',
      registrationOpen: false,
      period: 'ongoing',
      dateFrom: '2024-02-29',
      dateTo: '2024-02-29',
      updatedSince: '2025-01-31T10:00:00+02:00',
      include: ['categories', 'entriesCount'],
      sort: 'updatedAt',
      order: 'desc',
      page: 7,
      limit: 100,
    });
  });

  it('trims comma-list items and ignores duplicates', () => {
    expect(accepted('competitions', 'status=%20open%20,completed,open').status).toEqual(['open', 'completed']);
    expect(accepted('dancers', 'registryState=ARCHIVE,REGISTRY,ARCHIVE').registryState).toEqual(['ARCHIVE', 'REGISTRY']);
  });

  it('accepts every documented registry parameter', () => {
    expect(
      accepted(
        'dancers',
        `sex=FEMALE&countryId=1&country=Latvia&clubId=${UUID}&coachId=${UUID}&danceClass=3&hasPartner=true&status=ACTIVE,LIMITED&search=j%C4%81nis&sort=approvedAt`,
      ),
    ).toMatchObject({ sex: 'FEMALE', clubId: UUID, hasPartner: true, status: ['ACTIVE', 'LIMITED'], search: 'jānis', sort: 'approvedAt' });
    expect(accepted('coaches', `clubId=${UUID}&highestClass=5&sex=MALE`)).toMatchObject({ highestClass: 5 });
    expect(accepted('judges', 'judgeCategory=2&position=headJudge&status=INACTIVE')).toMatchObject({ position: 'headJudge' });
    expect(accepted('clubs', 'city=Riga&country=LV&countryId=4&registryState=ARCHIVE')).toMatchObject({ city: 'Riga' });
    expect(accepted('competitionCategories', 'entryType=couple,duo-synchro&style=none&level=10&search=ju')).toMatchObject({ level: 10 });
  });
});

describe('parseQuery: one detail per offending parameter, in query order', () => {
  it('reports all offending parameters in the order of first appearance', () => {
    expect(details('competitions', 'limit=0&foo=1&status=x&page=1&sort=name&order=up')).toEqual([
      'limit: must be an integer from 1 to 100 (got 0)',
      'foo: unknown parameter',
      'status: unsupported value "x" (accepted: open, completed)',
      'order: unsupported value "up" (accepted: asc, desc)',
    ]);
  });

  it('names removed parameters and their replacement', () => {
    expect(details('clubs', 'cityId=3&regionId=4')).toEqual([
      'cityId: unknown parameter (removed; use city)',
      'regionId: unknown parameter (removed; regions are no longer stored)',
    ]);
  });

  it('rejects a repeated parameter once, even if its values are valid', () => {
    expect(details('competitions', 'status=open&page=2&status=completed')).toEqual(['status: given more than once']);
  });

  it('rejects status on /coaches and /clubs with an explanation', () => {
    expect(details('coaches', 'status=ACTIVE')).toEqual(['status: not accepted on /coaches (coaches have no status)']);
    expect(details('clubs', 'status=ACTIVE')).toEqual(['status: not accepted on /clubs (clubs have no status)']);
  });

  it('rejects BUFFER naming the accepted values', () => {
    expect(details('dancers', 'registryState=REGISTRY,BUFFER')).toEqual([
      'registryState: unsupported value "BUFFER" (accepted: REGISTRY, ARCHIVE; the buffer is internal and never returned)',
    ]);
  });

  it('matches enums exactly (case-sensitive)', () => {
    expect(details('competitions', 'status=OPEN')[0]).toMatch(/^status: unsupported value "OPEN"/);
    expect(details('dancers', 'sex=male')[0]).toMatch(/^sex: unsupported value "male"/);
  });

  it('accepts booleans only as exactly true or false', () => {
    for (const value of ['True', '1', 'yes', 'false ', '']) {
      expect(details('dancers', `hasPartner=${encodeURIComponent(value)}`)).toHaveLength(1);
    }
  });

  it.each(['1.0', '1e2', '+1', '-1', '%201', '1%20', '0x10', '1a', '١'])('rejects the integer %s', (value) => {
    const [detail] = details('competitions', `page=${value}`);
    expect(detail).toMatch(/^page: /);
  });

  it('enforces limit 1..100, page 1..2^53-1 and every other integer up to 2^53-1, as the document states', () => {
    expect(details('dancers', 'limit=101')).toEqual(['limit: must be an integer from 1 to 100 (got 101)']);
    expect(details('dancers', 'page=0')).toEqual(['page: must be an integer from 1 to 9007199254740991 (got 0)']);
    expect(accepted('dancers', 'page=9007199254740991').page).toBe(Number.MAX_SAFE_INTEGER);
    expect(details('dancers', 'page=9007199254740992')).toEqual([
      'page: must be an integer from 1 to 9007199254740991 (got "9007199254740992")',
    ]);
    expect(details('dancers', 'page=99999999999999999999')).toEqual([
      'page: must be an integer from 1 to 9007199254740991 (got "99999999999999999999")',
    ]);
    expect(accepted('dancers', 'danceClass=9007199254740991&countryId=9007199254740991').danceClass).toBe(Number.MAX_SAFE_INTEGER);
    expect(details('coaches', 'highestClass=9007199254740992')).toEqual([
      'highestClass: must be an integer from 0 to 9007199254740991 (got "9007199254740992")',
    ]);
    expect(details('competitionCategories', 'level=0')).toEqual(['level: must be an integer from 1 to 10 (got 0)']);
  });

  it('rejects empty values and empty list items', () => {
    expect(details('competitions', 'country=&status=open,,completed&include=,')).toEqual([
      'country: must not be empty',
      'status: must be a comma-separated list without empty items (got "open,,completed")',
      'include: must be a comma-separated list without empty items (got ",")',
    ]);
  });

  it('requires search to have 2 characters after trimming', () => {
    expect(details('clubs', 'search=%20a%20')).toEqual(['search: must be at least 2 characters long after trimming (got "a")']);
    expect(accepted('clubs', 'search=ab').search).toBe('ab');
  });

  it('requires real calendar dates and ordered ranges', () => {
    expect(details('competitions', 'dateFrom=2023-02-29&dateTo=2024-13-01')).toEqual([
      'dateFrom: must be a calendar day that exists, written YYYY-MM-DD (got "2023-02-29")',
      'dateTo: must be a calendar day that exists, written YYYY-MM-DD (got "2024-13-01")',
    ]);
    expect(details('competitions', 'dateTo=2024-01-01&dateFrom=2024-01-02')).toEqual([
      'dateTo: must not be before dateFrom (got 2024-01-01 < 2024-01-02)',
    ]);
    expect(details('competitions', 'dateFrom=20240101')).toHaveLength(1);
  });

  it('requires updatedSince to be a date-time with a zone and hints at an unencoded +', () => {
    expect(details('competitions', 'updatedSince=2024-01-01')[0]).toMatch(/^updatedSince: must be an RFC 3339 date-time/);
    expect(details('competitions', 'updatedSince=2024-01-01T00:00:00+02:00')[0]).toContain('%2B');
    expect(accepted('competitions', 'updatedSince=2024-01-01T00:00:00.123Z').updatedSince).toBe('2024-01-01T00:00:00.123Z');
  });

  it('requires bare UUIDs for clubId and coachId', () => {
    expect(details('dancers', `clubId=urn:uuid:${UUID}&coachId=123`)).toEqual([
      `clubId: must be a UUID (got "urn:uuid:${UUID.slice(0, 31)}…")`,
      'coachId: must be a UUID (got "123")',
    ]);
  });

  it('rejects type codes outside the code grammar', () => {
    expect(details('competitions', 'type=cup,a%20b')[0]).toMatch(/^type: must be a type code/);
  });

  it('rejects every parameter on endpoints that take none', () => {
    for (const endpoint of ['competition', 'filters', 'club', 'registryFilters'] as const) {
      expect(details(endpoint, 'page=1')).toEqual(['page: unknown parameter']);
    }
  });

  it('quotes parameter names that are not plain', () => {
    expect(details('competitions', '=1&a%20b=2&%0A=3')).toEqual([
      '"": unknown parameter',
      '"a b": unknown parameter',
      '"\\n": unknown parameter',
    ]);
  });

  it('treats names of Object.prototype as unknown parameters', () => {
    expect(details('dancers', '__proto__=1&constructor=2&toString=3')).toEqual([
      '__proto__: unknown parameter',
      'constructor: unknown parameter',
      'toString: unknown parameter',
    ]);
    expect(details('coaches', 'constructor=1')).toEqual(['constructor: unknown parameter']);
    expect(details('dancers', 'registryState=constructor')).toEqual([
      'registryState: unsupported value "constructor" (accepted: REGISTRY, ARCHIVE)',
    ]);
  });

  it('treats parameter names case-sensitively', () => {
    expect(details('competitions', 'Limit=5')).toEqual(['Limit: unknown parameter']);
  });
});
