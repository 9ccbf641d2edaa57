import { describe, expect, it } from 'vitest';
import { addDays, assertTimeZone, calendarDay, endOfDay, startOfDay } from './index.ts';

describe('calendarDay', () => {
  it('is the UTC date in UTC', () => {
    expect(calendarDay(new Date('2025-06-09T23:59:59.999Z'), 'UTC')).toBe('2025-06-09');
    expect(calendarDay(new Date('2025-06-10T00:00:00.000Z'), 'UTC')).toBe('2025-06-10');
  });

  it('follows the zone offset (Europe/Riga is UTC+3 in summer, +2 in winter)', () => {
    expect(calendarDay(new Date('2025-06-09T20:59:59.999Z'), 'Europe/Riga')).toBe('2025-06-09');
    expect(calendarDay(new Date('2025-06-09T21:00:00.000Z'), 'Europe/Riga')).toBe('2025-06-10');
    expect(calendarDay(new Date('2025-01-09T22:00:00.000Z'), 'Europe/Riga')).toBe('2025-01-10');
    expect(calendarDay(new Date('2025-01-10T04:59:00.000Z'), 'America/New_York')).toBe('2025-01-09');
  });
});

describe('startOfDay', () => {
  it('is local midnight as an instant', () => {
    expect(startOfDay('2025-06-10', 'UTC').toISOString()).toBe('2025-06-10T00:00:00.000Z');
    expect(startOfDay('2025-06-10', 'Europe/Riga').toISOString()).toBe('2025-06-09T21:00:00.000Z');
    expect(startOfDay('2025-01-10', 'Europe/Riga').toISOString()).toBe('2025-01-09T22:00:00.000Z');
    expect(startOfDay('2025-01-10', 'Pacific/Kiritimati').toISOString()).toBe('2025-01-09T10:00:00.000Z');
    expect(startOfDay('2025-01-10', 'Pacific/Pago_Pago').toISOString()).toBe('2025-01-10T11:00:00.000Z');
  });

  it('is right on both DST change days in Riga (changes at 03:00/04:00 local)', () => {
    expect(startOfDay('2025-03-30', 'Europe/Riga').toISOString()).toBe('2025-03-29T22:00:00.000Z');
    expect(startOfDay('2025-03-31', 'Europe/Riga').toISOString()).toBe('2025-03-30T21:00:00.000Z');
    expect(startOfDay('2025-10-26', 'Europe/Riga').toISOString()).toBe('2025-10-25T21:00:00.000Z');
    expect(startOfDay('2025-10-27', 'Europe/Riga').toISOString()).toBe('2025-10-26T22:00:00.000Z');
  });

  it('is the DST change instant when the change skips midnight (São Paulo 2018-11-04 began at 01:00)', () => {
    expect(startOfDay('2018-11-04', 'America/Sao_Paulo').toISOString()).toBe('2018-11-04T03:00:00.000Z');
    expect(calendarDay(new Date('2018-11-04T02:59:59.999Z'), 'America/Sao_Paulo')).toBe('2018-11-03');
  });

  it('is the first midnight when a fall-back repeats the hour before it (São Paulo 2019-02-17)', () => {
    expect(startOfDay('2019-02-17', 'America/Sao_Paulo').toISOString()).toBe('2019-02-17T03:00:00.000Z');
    expect(calendarDay(new Date('2019-02-17T02:30:00.000Z'), 'America/Sao_Paulo')).toBe('2019-02-16');
  });

  it('round-trips with calendarDay for every day of a year in several zones', () => {
    for (const zone of ['UTC', 'Europe/Riga', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'Asia/Kathmandu']) {
      for (let day = '2024-01-01'; day < '2025-01-01'; day = addDays(day, 1)) {
        const start = startOfDay(day, zone);
        expect(calendarDay(start, zone)).toBe(day);
        expect(calendarDay(new Date(start.getTime() - 1), zone)).toBe(addDays(day, -1));
      }
    }
  });

  it('rejects a malformed day', () => {
    expect(() => startOfDay('2025-6-1', 'UTC')).toThrow(RangeError);
  });
});

describe('addDays and endOfDay', () => {
  it('crosses months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-29', 1)).toBe('2024-03-01');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addDays('2025-01-31', 30)).toBe('2025-03-02');
  });

  it('ends a day where the next begins', () => {
    expect(endOfDay('2025-10-25', 'Europe/Riga').toISOString()).toBe('2025-10-25T21:00:00.000Z');
  });
});

describe('assertTimeZone', () => {
  it('accepts IANA zones and rejects unknown ones', () => {
    expect(() => assertTimeZone('Europe/Riga')).not.toThrow();
    expect(() => assertTimeZone('Mars/Olympus')).toThrow(/unknown time zone: Mars\/Olympus/);
  });
});
