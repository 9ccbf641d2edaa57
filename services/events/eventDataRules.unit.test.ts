import { describe, expect, it } from 'vitest';
import { validateEvent } from './index.ts';
import { exampleEvent, exampleIds } from '../../test/support/exampleEvents.ts';
import { reasonOf, withData } from './rejections.test.ts';

// Each rule of the contract's `data` shapes, with the reason a publisher would read.

const category = (edit: Record<string, unknown>) =>
  withData('competition.category_added', (d) => ({ category: { ...(d.category as object), ...edit } }));

describe('competition events', () => {
  it('reject a missing field', () => {
    expect(reasonOf(withData('competition.drafted', ({ name: _, ...rest }) => rest))).toBe('data: missing required field "name"');
  });

  it('name every missing field of one object together', () => {
    expect(reasonOf(withData('competition.drafted', (d) => ({ ...d, organizer: { name: 'Aurora' } })))).toBe(
      'data.organizer: missing required fields "shortName", "country", "countryCode", "website"',
    );
  });

  it('reject a wrong enum value', () => {
    expect(reasonOf(category({ entryType: 'trio' }))).toBe('data.category.entryType: must be one of couple, solo, duo-synchro, mix, show');
    expect(reasonOf(category({ style: 'ballet' }))).toBe('data.category.style: must be one of none, latin, standard, combined, null');
  });

  it('reject a level outside 1..10 or not an integer', () => {
    expect(reasonOf(category({ level: 0 }))).toBe('data.category.level: must be 1 or more');
    expect(reasonOf(category({ level: 11 }))).toBe('data.category.level: must be 10 or less');
    expect(reasonOf(category({ level: 'A' }))).toBe('data.category.level: must be an integer or null');
  });

  it('reject an impossible or badly written date', () => {
    for (const start of ['2025-02-30', '14.06.2025', '2025-06-14T00:00:00Z']) {
      const event = withData('competition.drafted', (d) => ({ ...d, dates: { start, end: '2025-06-15' } }));
      expect(reasonOf(event)).toBe('data.dates.start: must be a date (YYYY-MM-DD)');
    }
  });

  it('reject a null where the contract does not allow one', () => {
    expect(reasonOf(withData('competition.drafted', (d) => ({ ...d, dates: null })))).toBe('data.dates: must be an object');
  });

  it('reject banner keys other than pixel widths or a lone "default"', () => {
    const banner = (horizontal: unknown) => withData('competition.details_changed', () => ({ banner: { horizontal, vertical: null } }));
    expect(reasonOf(banner({ large: 'https://cdn.example/b.jpg' }))).toBe(
      'data.banner.horizontal: key "large" must be a pixel width or "default"',
    );
    expect(reasonOf(banner({ default: 'https://cdn.example/a.jpg', '640': 'https://cdn.example/b.jpg' }))).toBe(
      'data.banner.horizontal: "default" must be the only key',
    );
    expect(reasonOf(banner({ '640': 5 }))).toBe('data.banner.horizontal.640: must be a string');
  });

  it('reject an unknown field inside a subset', () => {
    expect(reasonOf(withData('competition.details_changed', () => ({ status: 'completed' })))).toBe('data: unexpected field "status"');
  });

  it('reject an entry with no category or a category named twice', () => {
    expect(reasonOf(withData('competition.entry_submitted', (d) => ({ ...d, categoryIds: [] })))).toBe(
      'data.categoryIds: must not be empty',
    );
    const twice = [exampleIds.categoryLatin, exampleIds.categoryLatin];
    expect(reasonOf(withData('competition.entry_changed', (d) => ({ ...d, categoryIds: twice })))).toBe(
      'data.categoryIds: must not repeat an item (items 1 and 0 are equal)',
    );
    expect(reasonOf(withData('competition.entry_submitted', (d) => ({ ...d, categoryIds: ['x'] })))).toBe(
      'data.categoryIds[0]: must be a uuid',
    );
  });

  it('reject data on an event that carries none', () => {
    expect(reasonOf(withData('competition.published', () => ({ slug: 'x' })))).toBe('data: unexpected field "slug"');
  });
});

describe('person events', () => {
  const grant = (data: Record<string, unknown>) => withData('person.role_granted', () => data);
  const approvedAt = '2025-01-01T10:00:00Z';

  it('accept each role with its own fields', () => {
    expect(validateEvent(grant({ role: 'coach', approvedAt, registryUntil: null, highestClass: null })).ok).toBe(true);
    const judge = { role: 'judge', approvedAt, registryUntil: '2026-01-01', judgeCategory: 1, positions: ['sportsInspector'] };
    expect(validateEvent(grant(judge)).ok).toBe(true);
  });

  it('reject a dancer grant carrying judge fields', () => {
    const dancer = { role: 'dancer', approvedAt, registryUntil: null, danceClass: 3, hasPartner: true };
    expect(reasonOf(grant({ ...dancer, judgeCategory: 2, positions: ['judge'] }))).toBe(
      'data: unexpected field "judgeCategory"; data: unexpected field "positions"',
    );
  });

  it('reject a grant missing its role fields, or with an unknown role', () => {
    expect(reasonOf(grant({ role: 'dancer', approvedAt, registryUntil: null }))).toBe(
      'data: missing required fields "danceClass", "hasPartner"',
    );
    expect(reasonOf(grant({ role: 'coach', approvedAt, registryUntil: null }))).toBe('data: missing required field "highestClass"');
    expect(reasonOf(grant({ role: 'judge', approvedAt, registryUntil: null, judgeCategory: 1 }))).toBe(
      'data: missing required field "positions"',
    );
    expect(reasonOf(grant({ role: 'admin', approvedAt }))).toBe('data.role: must be one of dancer, coach, judge');
    expect(reasonOf(grant({ approvedAt }))).toBe('data: missing required field "role"');
  });

  it('reject a judge position outside the list', () => {
    const judge = { role: 'judge', approvedAt, registryUntil: null, judgeCategory: 1, positions: ['chairman'] };
    expect(reasonOf(grant(judge))).toBe('data.positions[0]: must be one of judge, headJudge, sportsInspector');
  });

  it('check role detail changes against that role', () => {
    const change = (data: unknown) => withData('person.role_details_changed', () => data);
    expect(validateEvent(change({ role: 'coach', changes: { highestClass: 9 } })).ok).toBe(true);
    expect(validateEvent(change({ role: 'judge', changes: {} })).ok).toBe(true);
    expect(reasonOf(change({ role: 'coach', changes: { danceClass: 9 } }))).toBe('data.changes: unexpected field "danceClass"');
  });

  it('take only a paid role on membership events', () => {
    expect(reasonOf(withData('person.membership_paid', (d) => ({ ...d, role: 'coach' })))).toBe('data.role: must be one of dancer, judge');
    expect(reasonOf(withData('person.membership_status_changed', (d) => ({ ...d, role: 'coach' })))).toBe(
      'data.role: must be one of dancer, judge',
    );
    expect(reasonOf(withData('person.membership_paid', (d) => ({ ...d, status: 'INACTIVE' })))).toBe(
      'data.status: must be one of ACTIVE, LIMITED',
    );
  });

  it('take only a dancer or coach on club links', () => {
    expect(reasonOf(withData('person.club_joined', (d) => ({ ...d, role: 'judge' })))).toBe('data.role: must be one of dancer, coach');
  });

  it('reject a country code that is not alpha-2', () => {
    const country = { id: 117, name: 'Latvia', code: 'LVA' };
    expect(reasonOf(withData('person.registered', (d) => ({ ...d, country })))).toBe(
      'data.country.code: must be an ISO 3166-1 alpha-2 code (two capital letters)',
    );
  });

  it('reject an exception "until" without an offset', () => {
    expect(reasonOf(withData('person.exception_placed', (d) => ({ ...d, until: '2025-06-30 00:00' })))).toBe(
      'data.until: must be a date-time with offset (RFC 3339, e.g. 2025-03-01T09:30:00Z)',
    );
  });
});

describe('club events', () => {
  const location = exampleEvent('club.location_added').data.location;

  it('require exactly one main location when any exist', () => {
    const registered = (locations: unknown[]) => withData('club.registered', (d) => ({ ...d, locations }));
    expect(reasonOf(registered([location]))).toBe('data.locations: must hold exactly one "main" location (found 0)');
    const mains = [
      { ...location, type: 'main' },
      { ...location, id: exampleIds.clubMainLocation, type: 'main' },
    ];
    expect(reasonOf(registered(mains))).toBe('data.locations: must hold exactly one "main" location (found 2)');
  });

  it('reject a location type other than main or branch', () => {
    expect(reasonOf(withData('club.location_added', () => ({ location: { ...location, type: 'office' } })))).toBe(
      'data.location.type: must be one of main, branch',
    );
  });

  it('keep id and type out of location changes', () => {
    const changed = (changes: unknown) => withData('club.location_changed', (d) => ({ ...d, changes }));
    expect(validateEvent(changed({ city: null, country: null })).ok).toBe(true);
    expect(reasonOf(changed({ type: 'main' }))).toBe('data.changes: unexpected field "type"');
  });

  it('replace contacts whole, so a partial contacts object is refused', () => {
    const changed = withData('club.details_changed', () => ({ contacts: { phone: null } }));
    expect(reasonOf(changed)).toBe('data.contacts: missing required fields "email", "website", "instagram", "facebook"');
  });

  it('cap a very long reason', () => {
    const junk = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`x${i}`, i]));
    expect(reasonOf(withData('club.archived', () => junk))).toMatch(/; and 5 more$/);
  });
});
