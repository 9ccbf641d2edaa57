import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../services/config/index.ts';
import { noLocation as noEventLocation } from '../../test/api/eventBuilders.ts';
import { readCalendar } from '../../test/support/readCalendar.ts';
import { apiUrls } from './apiUrls.ts';
import { competitionCalendar, locationText, type CalendarCompetition } from './competitionCalendar.ts';

const urls = apiUrls(loadConfig({ API_PUBLIC_URL: 'https://api.example.org', SITE_URL: 'https://calendar.example.org' }));
const noLocation = { ...noEventLocation, label: null };

const riga: CalendarCompetition = {
  id: 'c0000000-0000-4000-8000-000000000001',
  slug: 'riga-open-2025',
  name: 'Riga Open 2025; Latin, Standard',
  description: 'Two days of Latin and Standard.\nBring your own shoes.',
  dates: { start: '2025-06-14', end: '2025-06-15' },
  location: { ...noLocation, country: 'Latvia', countryCode: 'LV', city: 'Rīga', venueName: 'Arena Riga' },
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-04-03T10:00:00.000Z',
};
const oneDay: CalendarCompetition = {
  ...riga,
  id: 'c0000000-0000-4000-8000-000000000002',
  slug: 'new year/cup',
  name: 'New Year Cup',
  description: null,
  // Crosses a month and a year: the exclusive end is computed on the calendar, not by string.
  dates: { start: '2025-12-31', end: '2025-12-31' },
  location: noLocation,
};

const feed = (competitions: CalendarCompetition[], matched = competitions.length) =>
  competitionCalendar(
    {
      competitions,
      matched,
      selfUrl: 'https://api.example.org/api/v1/competitions.ics?order=desc&sort=startDate',
      order: 'startDate desc',
    },
    urls,
  );

describe('competitionCalendar', () => {
  it('writes one all-day event per competition with an exclusive end, read back by an independent parser', () => {
    const calendar = readCalendar(feed([riga, oneDay]));
    expect(calendar.version).toBe('2.0');
    expect(calendar.url).toBe('https://api.example.org/api/v1/competitions.ics?order=desc&sort=startDate');
    expect(calendar.events).toEqual([
      {
        uid: `${riga.id}@calendar.example.org`,
        summary: 'Riga Open 2025; Latin, Standard',
        location: 'Arena Riga, Rīga, Latvia',
        url: 'https://calendar.example.org/competitions/riga-open-2025',
        description: 'Two days of Latin and Standard.\nBring your own shoes.',
        start: '2025-06-14',
        end: '2025-06-16',
        allDay: true,
        lastModified: '2025-04-03T10:00:00.000Z',
        stamp: '2025-04-03T10:00:00.000Z',
        created: '2025-03-01T10:00:00.000Z',
        transparency: 'TRANSPARENT',
      },
      expect.objectContaining({
        uid: `${oneDay.id}@calendar.example.org`,
        location: null,
        description: null,
        url: 'https://calendar.example.org/competitions/new%20year%2Fcup',
        start: '2025-12-31',
        end: '2026-01-01',
        allDay: true,
      }),
    ]);
  });

  it('writes VALUE=DATE on DTSTART and DTEND and CRLF line ends', () => {
    const text = feed([riga]);
    expect(text).toContain('DTSTART;VALUE=DATE:20250614\r\n');
    expect(text).toContain('DTEND;VALUE=DATE:20250616\r\n');
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
  });

  it('gives the same bytes for the same competitions whatever the time (no clock in the feed), so ETags hold', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
      const first = feed([riga, oneDay]);
      vi.setSystemTime(new Date('2031-07-09T13:14:15Z'));
      expect(feed([riga, oneDay])).toBe(first);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says in the calendar description how many matched when the bound cut the feed', () => {
    expect(readCalendar(feed([riga, oneDay])).description).toBe('2 published competitions.');
    expect(readCalendar(feed([riga])).description).toBe('1 published competition.');
    expect(readCalendar(feed([riga, oneDay], 2345)).description).toBe(
      'The first 2 of 2,345 matching published competitions (by startDate desc); narrow the filters (e.g. period=upcoming or country) to get the others.',
    );
  });

  it('is a valid empty calendar when nothing matches', () => {
    const calendar = readCalendar(feed([]));
    expect(calendar.events).toEqual([]);
    expect(calendar.name).toBe('Dance-sport competitions');
  });

  it('builds the location from venue, city and country that are set', () => {
    expect(locationText({ ...noLocation, city: 'Tallinn', country: 'Estonia' })).toBe('Tallinn, Estonia');
    expect(locationText({ ...noLocation, venueName: '  ' })).toBeNull();
  });
});
