// Instants are whole epoch seconds: until 2038 they are small integers, which V8 stores inline
// in the objects that hold them (milliseconds would be a boxed number per field); hundreds of
// thousands of aggregates keep a few each. They become strings only when an event is written.

export const MINUTE = 60;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const YEAR = 365 * DAY;

export function fromDate(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
// Formatting dates is the generator's hottest path, and a history touches only a few thousand
// distinct days: each day's string is built once.
const dayStrings = new Map<number, string>();

/** The calendar day (UTC) of an instant, `YYYY-MM-DD`. */
export function calendarDate(seconds: number): string {
  const day = Math.floor(seconds / DAY);
  let text = dayStrings.get(day);
  if (text === undefined) {
    text = new Date(day * DAY * 1000).toISOString().slice(0, 10);
    dayStrings.set(day, text);
  }
  return text;
}

/** RFC 3339 with `Z` and no fraction, e.g. `2026-11-23T09:15:00Z`. */
export function dateTime(seconds: number): string {
  const ofDay = Math.floor(seconds - Math.floor(seconds / DAY) * DAY);
  const hours = Math.floor(ofDay / HOUR);
  const minutes = Math.floor(ofDay / MINUTE) % 60;
  return `${calendarDate(seconds)}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[ofDay % 60]}Z`;
}

export function startOfDay(seconds: number): number {
  return Math.floor(seconds / DAY) * DAY;
}

export function yearOf(seconds: number): number {
  return new Date(seconds * 1000).getUTCFullYear();
}

/** The same wall-clock instant `months` later (day clamped to the target month's length). */
export function addMonths(seconds: number, months: number): number {
  const date = new Date(seconds * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return Math.floor(date.getTime() / 1000);
}
