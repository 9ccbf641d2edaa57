import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calendarDay, startOfDay } from './calendar.ts';

// The memoized day boundaries must agree with Intl at every instant, DST changes included.
const zones = ['UTC', 'Europe/Riga', 'America/Santiago', 'Pacific/Chatham', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Kiritimati'];

function intlDay(instantMs: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
    new Date(instantMs),
  );
  const get = (type: string): string => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

describe('calendarDay with memoized day starts', () => {
  it('agrees with Intl for any instant in 1990..2060 and any zone', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }), fc.constantFrom(...zones), (ms, zone) => {
        expect(calendarDay(new Date(ms), zone)).toBe(intlDay(ms, zone));
      }),
      { numRuns: 5000 },
    );
  });

  it("follows a clock that falls back across midnight (St. John's, 1992-10-25 00:01 NDT)", () => {
    // 02:30Z is 00:00 NDT on the 25th; at 02:31Z the clock went back to 23:01 NST on the 24th.
    expect(calendarDay(new Date('1992-10-25T02:30:30Z'), 'America/St_Johns')).toBe('1992-10-25');
    expect(calendarDay(new Date('1992-10-25T02:31:00Z'), 'America/St_Johns')).toBe('1992-10-24');
    expect(calendarDay(new Date('1992-10-25T03:30:00Z'), 'America/St_Johns')).toBe('1992-10-25');
  });

  it('puts the instant just before a day start on the previous day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.constantFrom(...zones), (n, zone) => {
        const day = new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
        const start = startOfDay(day, zone).getTime();
        expect(calendarDay(new Date(start), zone)).toBe(day);
        expect(calendarDay(new Date(start - 1), zone)).not.toBe(day);
      }),
      { numRuns: 2000 },
    );
  });
});
