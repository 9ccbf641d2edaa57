import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import {
  CategoryListEnvelope,
  ClubEnvelope,
  ClubListEnvelope,
  CoachListEnvelope,
  CompetitionEnvelope,
  CompetitionFilters,
  CompetitionListEnvelope,
  DancerListEnvelope,
  ErrorEnvelope,
  JudgeListEnvelope,
  RegistryFilters,
} from '../../schemas/api/index.ts';
import { openDatabase, startApi, type ApiServer, type Database } from './apiHarness.ts';
import { NOW, calendarEvents } from './calendarSeed.ts';
import { expectMatchesSchema } from './expectMatchesSchema.ts';
import { clubs, registryEvents } from './registrySeed.ts';

let database: Database;
let api: ApiServer;

beforeAll(async () => {
  database = await openDatabase('api_validation');
  await database.project([...calendarEvents, ...registryEvents], NOW);
  api = await startApi(database.db, NOW);
});
afterAll(async () => {
  await api?.close();
  await database?.drop();
});

const UUID = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

// Every parameter of every endpoint with a value it accepts: each answers 200 alone.
const ACCEPTED: Array<[string, TSchema, string[]]> = [
  [
    '/competitions',
    CompetitionListEnvelope,
    [
      'search=ri',
      'country=LV',
      'country=latvia',
      'countryId=117',
      'city=R%C4%ABga',
      'status=open',
      'status=open,%20completed',
      'type=national',
      'registrationStatus=open',
      'registrationStatus=closed',
      'registrationOpen=true',
      'registrationOpen=false',
      'period=upcoming',
      'period=ongoing',
      'period=past',
      'dateFrom=2025-01-01',
      'dateTo=2025-12-31',
      'updatedSince=2025-01-01T00:00:00Z',
      'include=categories',
      'include=entriesCount',
      'include=categories,entriesCount,categories',
      'sort=startDate',
      'sort=endDate',
      'sort=name',
      'sort=createdAt',
      'sort=updatedAt',
      'order=asc',
      'order=desc',
      'page=1',
      'page=2',
      'limit=1',
      'limit=100',
    ],
  ],
  ['/competitions/riga-open-2025', CompetitionEnvelope, ['']],
  [
    '/competitions/riga-open-2025/categories',
    CategoryListEnvelope,
    ['', 'entryType=couple,solo,duo-synchro,mix,show', 'style=none,latin,standard,combined', 'level=1', 'level=10', 'search=la'],
  ],
  ['/filters', CompetitionFilters, ['']],
  [
    '/dancers',
    DancerListEnvelope,
    [
      'registryState=REGISTRY',
      'registryState=ARCHIVE',
      'registryState=REGISTRY,ARCHIVE',
      'sort=name',
      'sort=approvedAt',
      'order=desc',
      'page=3',
      'limit=100',
      'search=an',
      'sex=MALE',
      'sex=FEMALE',
      'countryId=117',
      'country=LV',
      `clubId=${UUID}`,
      `coachId=${UUID}`,
      'danceClass=0',
      'hasPartner=true',
      'hasPartner=false',
      'status=ACTIVE,LIMITED,INACTIVE',
    ],
  ],
  [
    '/coaches',
    CoachListEnvelope,
    [
      'registryState=ARCHIVE',
      'sort=approvedAt',
      'order=desc',
      'search=oz',
      'sex=MALE',
      'countryId=117',
      'country=lv',
      `clubId=${clubs.aurora}`,
      'highestClass=8',
    ],
  ],
  [
    '/judges',
    JudgeListEnvelope,
    [
      'registryState=REGISTRY,ARCHIVE',
      'search=ma',
      'sex=FEMALE',
      'countryId=130',
      'country=LT',
      'judgeCategory=2',
      'position=judge',
      'position=headJudge',
      'position=sportsInspector',
      'status=LIMITED',
    ],
  ],
  [
    '/clubs',
    ClubListEnvelope,
    ['registryState=ARCHIVE', 'sort=approvedAt', 'order=desc', 'search=au', 'countryId=68', 'country=EE', 'city=ta', 'page=1&limit=1'],
  ],
  [`/clubs/${clubs.aurora}`, ClubEnvelope, ['']],
  ['/registry/filters', RegistryFilters, ['']],
];

// Each kind of rejection, with the exact details the client reads.
const REJECTED: Array<[string, string, string[]]> = [
  ['/competitions', 'limit=0', ['limit: must be an integer from 1 to 100 (got 0)']],
  ['/competitions', 'limit=101', ['limit: must be an integer from 1 to 100 (got 101)']],
  ['/competitions', 'limit=1.0', ['limit: must be an integer from 1 to 100, written with decimal digits only (got "1.0")']],
  ['/competitions', 'page=0', ['page: must be an integer from 1 to 9007199254740991 (got 0)']],
  ['/competitions', 'page=-1', ['page: must be an integer from 1 to 9007199254740991, written with decimal digits only (got "-1")']],
  ['/competitions', 'status=draft', ['status: unsupported value "draft" (accepted: open, completed)']],
  ['/competitions', 'status=open,,completed', ['status: must be a comma-separated list without empty items (got "open,,completed")']],
  ['/competitions', 'status=open&status=completed', ['status: given more than once']],
  ['/competitions', 'cityId=1', ['cityId: unknown parameter (removed; use city)']],
  ['/competitions', 'regionId=2', ['regionId: unknown parameter (removed; regions are no longer stored)']],
  ['/competitions', 'foo=bar', ['foo: unknown parameter']],
  ['/competitions', 'search=%20a%20', ['search: must be at least 2 characters long after trimming (got "a")']],
  ['/competitions', 'registrationOpen=yes', ['registrationOpen: must be true or false (got "yes")']],
  ['/competitions', 'registrationStatus=pending', ['registrationStatus: unsupported value "pending" (accepted: open, closed)']],
  ['/competitions', 'period=future', ['period: unsupported value "future" (accepted: upcoming, ongoing, past)']],
  ['/competitions', 'dateFrom=2025-02-30', ['dateFrom: must be a calendar day that exists, written YYYY-MM-DD (got "2025-02-30")']],
  ['/competitions', 'dateFrom=2025-06-10&dateTo=2025-06-01', ['dateTo: must not be before dateFrom (got 2025-06-01 < 2025-06-10)']],
  [
    '/competitions',
    'updatedSince=2025-01-01',
    ['updatedSince: must be an RFC 3339 date-time with a time zone, e.g. 2025-03-01T12:00:00Z (got "2025-01-01")'],
  ],
  [
    '/competitions',
    'updatedSince=2025-01-01T00:00:00+02:00',
    [
      'updatedSince: must be an RFC 3339 date-time with a time zone, e.g. 2025-03-01T12:00:00Z (a `+` in the offset must be written %2B) (got "2025-01-01T00:00:00 02:00")',
    ],
  ],
  ['/competitions', 'include=everything', ['include: unsupported value "everything" (accepted: categories, entriesCount)']],
  ['/competitions', 'sort=price', ['sort: unsupported value "price" (accepted: startDate, endDate, name, createdAt, updatedAt)']],
  ['/competitions', 'order=up', ['order: unsupported value "up" (accepted: asc, desc)']],
  [
    '/competitions',
    'countryId=abc',
    ['countryId: must be an integer from 0 to 9007199254740991, written with decimal digits only (got "abc")'],
  ],
  [
    '/competitions',
    'type=bad%20code',
    ['type: must be a type code as published by /filters (letters, digits, `_`, `.`, `-`) (got "bad code")'],
  ],
  ['/competitions', 'city=', ['city: must not be empty']],
  [
    '/competitions',
    'limit=500&status=x&cityId=1',
    [
      'limit: must be an integer from 1 to 100 (got 500)',
      'status: unsupported value "x" (accepted: open, completed)',
      'cityId: unknown parameter (removed; use city)',
    ],
  ],
  ['/competitions/riga-open-2025', 'include=categories', ['include: unknown parameter']],
  ['/competitions/riga-open-2025/categories', 'level=11', ['level: must be an integer from 1 to 10 (got 11)']],
  ['/competitions/riga-open-2025/categories', 'level=0', ['level: must be an integer from 1 to 10 (got 0)']],
  [
    '/competitions/riga-open-2025/categories',
    'entryType=duo',
    ['entryType: unsupported value "duo" (accepted: couple, solo, duo-synchro, mix, show)'],
  ],
  [
    '/competitions/riga-open-2025/categories',
    'style=jazz',
    ['style: unsupported value "jazz" (accepted: none, latin, standard, combined)'],
  ],
  ['/competitions/riga-open-2025/categories', 'search=x', ['search: must be at least 2 characters long after trimming (got "x")']],
  ['/filters', 'x=1', ['x: unknown parameter']],
  [
    '/dancers',
    'registryState=BUFFER',
    ['registryState: unsupported value "BUFFER" (accepted: REGISTRY, ARCHIVE; the buffer is internal and never returned)'],
  ],
  [
    '/dancers',
    'registryState=REGISTRY,BUFFER',
    ['registryState: unsupported value "BUFFER" (accepted: REGISTRY, ARCHIVE; the buffer is internal and never returned)'],
  ],
  ['/dancers', 'registryState=registry', ['registryState: unsupported value "registry" (accepted: REGISTRY, ARCHIVE)']],
  ['/dancers', 'status=ACTIVE,PAID', ['status: unsupported value "PAID" (accepted: ACTIVE, LIMITED, INACTIVE)']],
  ['/dancers', 'sex=X', ['sex: unsupported value "X" (accepted: MALE, FEMALE)']],
  ['/dancers', 'clubId=123', ['clubId: must be a UUID (got "123")']],
  ['/dancers', 'coachId=not-a-uuid', ['coachId: must be a UUID (got "not-a-uuid")']],
  ['/dancers', 'hasPartner=1', ['hasPartner: must be true or false (got "1")']],
  ['/dancers', 'danceClass=-1', ['danceClass: must be an integer from 0 to 9007199254740991, written with decimal digits only (got "-1")']],
  ['/dancers', 'sort=surname', ['sort: unsupported value "surname" (accepted: name, approvedAt)']],
  ['/coaches', 'status=ACTIVE', ['status: not accepted on /coaches (coaches have no status)']],
  ['/coaches', `coachId=${UUID}`, ['coachId: unknown parameter']],
  ['/judges', 'position=referee', ['position: unsupported value "referee" (accepted: judge, headJudge, sportsInspector)']],
  [
    '/judges',
    'judgeCategory=x',
    ['judgeCategory: must be an integer from 0 to 9007199254740991, written with decimal digits only (got "x")'],
  ],
  ['/clubs', 'status=ACTIVE', ['status: not accepted on /clubs (clubs have no status)']],
  ['/clubs', 'cityId=1', ['cityId: unknown parameter (removed; use city)']],
  ['/clubs', 'regionId=1', ['regionId: unknown parameter (removed; regions are no longer stored)']],
  ['/clubs', 'sex=MALE', ['sex: unknown parameter']],
  [`/clubs/${clubs.aurora}`, 'x=1', ['x: unknown parameter']],
  ['/registry/filters', 'page=1', ['page: unknown parameter']],
];

describe('query parameters', () => {
  for (const [path, schema, queries] of ACCEPTED) {
    it(`${path} accepts ${queries.length === 1 && queries[0] === '' ? 'no query' : queries.join(' | ')}`, async () => {
      for (const query of queries) {
        const res = await api.request(`/api/v1${path}${query === '' ? '' : `?${query}`}`);
        expect(res.status, `${path}?${query}: ${res.text}`).toBe(200);
        expectMatchesSchema(res.json, schema);
      }
    });
  }

  it('rejects with 400 INVALID_REQUEST naming every offending parameter exactly', async () => {
    for (const [path, query, details] of REJECTED) {
      const res = await api.request(`/api/v1${path}?${query}`);
      expect(res.status, `${path}?${query}`).toBe(400);
      expectMatchesSchema(res.json, ErrorEnvelope);
      expect(res.json, `${path}?${query}`).toEqual({
        error: { type: 'INVALID_REQUEST', message: 'One or more query parameters are invalid.', details },
      });
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
    }
  });
});
