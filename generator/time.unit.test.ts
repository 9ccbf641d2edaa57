import { describe, expect, it } from 'vitest';
import { addMonths, calendarDate, dateTime, fromDate, startOfDay } from './time.ts';

describe('time helpers (epoch seconds)', () => {
  it('format like toISOString without the fraction', () => {
    for (const iso of [
      '1970-01-01T00:00:00Z',
      '2024-02-29T23:59:59Z',
      '2026-11-23T09:05:07Z',
      '1969-12-31T12:00:00Z',
      '2038-01-19T03:14:08Z',
    ]) {
      const seconds = fromDate(new Date(iso));
      expect(dateTime(seconds)).toBe(iso);
      expect(calendarDate(seconds)).toBe(iso.slice(0, 10));
      expect(dateTime(startOfDay(seconds))).toBe(`${iso.slice(0, 10)}T00:00:00Z`);
    }
  });

  it('adds calendar months, clamping to the end of shorter months', () => {
    const at = (iso: string): number => fromDate(new Date(iso));
    expect(dateTime(addMonths(at('2025-01-31T10:00:00Z'), 1))).toBe('2025-02-28T10:00:00Z');
    expect(dateTime(addMonths(at('2024-02-29T10:00:00Z'), 12))).toBe('2025-02-28T10:00:00Z');
    expect(dateTime(addMonths(at('2025-11-15T00:00:01Z'), 12))).toBe('2026-11-15T00:00:01Z');
  });
});
