import { describe, expect, it } from 'vitest';
import { matchEndpoint } from '../http/index.ts';
import { parseQuery } from '../query/parseQuery.ts';
import { removalsFilter } from './competitionRemovals.ts';

describe('GET /competitions/removals', () => {
  it('is matched before /competitions/{idOrSlug}; the calendar feed is its own path', () => {
    expect(matchEndpoint('/api/v1/competitions/removals', '/api/v1')?.definition.name).toBe('competitionRemovals');
    expect(matchEndpoint('/api/v1/competitions/removals-cup', '/api/v1')?.definition.name).toBe('competition');
    expect(matchEndpoint('/api/v1/competitions/removals/categories', '/api/v1')?.definition.name).toBe('competitionCategories');
    expect(matchEndpoint('/api/v1/competitions.ics', '/api/v1')?.definition.name).toBe('competitionsCalendar');
  });

  it('filters on the removal instant in canonical UTC, and on any removal without updatedSince', () => {
    expect(removalsFilter('2025-04-01T12:00:00+02:00')).toEqual({ 'removal.at': { $gte: '2025-04-01T10:00:00.000Z' } });
    expect(removalsFilter(undefined)).toEqual({ 'removal.at': { $gte: '' } });
  });

  it('validates its query like the other lists', () => {
    expect(parseQuery('competitionRemovals', 'updatedSince=2025-04-01T00:00:00Z')).toEqual({
      ok: true,
      query: { updatedSince: '2025-04-01T00:00:00Z', page: 1, limit: 20 },
    });
    expect(parseQuery('competitionRemovals', 'updatedSince=yesterday&limit=500&status=open')).toEqual({
      ok: false,
      details: [
        'updatedSince: must be an RFC 3339 date-time with a time zone, e.g. 2025-03-01T12:00:00Z (got "yesterday")',
        'limit: must be an integer from 1 to 100 (got 500)',
        'status: unknown parameter',
      ],
    });
  });
});
