// Calendar days of the federation's time zone, computed with Intl only (no tz database of our own).

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Throws a RangeError naming the zone when Intl does not know it. */
export function assertTimeZone(zone: string): void {
  try {
    formatterFor(zone);
  } catch {
    throw new RangeError(`unknown time zone: ${zone}`);
  }
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localTime(instantMs: number, zone: string): LocalTime {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? 0,
    month: fields.month ?? 1,
    day: fields.day ?? 1,
    hour: fields.hour ?? 0,
    minute: fields.minute ?? 0,
    second: fields.second ?? 0,
  };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function formatDay(year: number, month: number, day: number): string {
  const y = year < 0 ? `-${pad(-year, 6)}` : year > 9999 ? `+${pad(year, 6)}` : pad(year, 4);
  return `${y}-${pad(month)}-${pad(day)}`;
}

function parseDay(day: string): { year: number; month: number; day: number } {
  const match = DAY_PATTERN.exec(day);
  if (!match) throw new RangeError(`not a calendar day (YYYY-MM-DD): ${day}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** Milliseconds of UTC midnight of a calendar day. */
function utcMidnight(day: string): number {
  const { year, month, day: d } = parseDay(day);
  return Date.UTC(year, month - 1, d);
}

/** The calendar day from Intl directly: exact, but a formatToParts call (slow on hot paths). */
function calendarDayByIntl(instantMs: number, zone: string): string {
  const t = localTime(instantMs, zone);
  return formatDay(t.year, t.month, t.day);
}

const utcDay = (instantMs: number): string => {
  const d = new Date(instantMs);
  return formatDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
};

/** The calendar day ('YYYY-MM-DD') an instant falls on in the zone. */
export function calendarDay(instant: Date, zone: string): string {
  const ms = instant.getTime();
  if (zone === 'UTC') return utcDay(ms);
  // Offsets lie within ±14 h, so the local day is the UTC day or one of its neighbours; the
  // memoized day starts decide which without asking Intl again.
  const guess = utcDay(ms);
  for (const day of [guess, addDays(guess, -1), addDays(guess, 1)]) {
    if (startOfDayMs(day, zone) <= ms && ms < startOfDayMs(addDays(day, 1), zone)) {
      // A day is one interval of instants unless the clock goes back across midnight within it
      // (St. John's fell back at 00:01 until 2011: 00:00-00:01 is the 25th, then the 24th again).
      // Only days with an offset change can do that; for those few, Intl decides.
      return changesOffset(day, zone) ? calendarDayByIntl(ms, zone) : day;
    }
  }
  return calendarDayByIntl(ms, zone);
}

/** Offset of the zone at an instant, in milliseconds (local = UTC + offset). */
function offsetAt(instantMs: number, zone: string): number {
  const t = localTime(instantMs, zone);
  const localAsUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return localAsUtc - Math.floor(instantMs / 1000) * 1000;
}

// Day starts are asked for constantly (every due instant, every registration state) and a
// federation's history spans a few thousand days, so each per-day answer is computed once per
// zone; the bound only guards against a caller walking through centuries.
const MAX_MEMOIZED_DAYS = 100_000;

function memoizedPerDay<T>(compute: (day: string, zone: string) => T): (day: string, zone: string) => T {
  const known = new Map<string, T>();
  return (day, zone) => {
    const key = `${zone}|${day}`;
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    if (known.size >= MAX_MEMOIZED_DAYS) known.clear();
    const value = compute(day, zone);
    known.set(key, value);
    return value;
  };
}

const memoizedStartOfDay = memoizedPerDay((day, zone) => computeStartOfDay(day, zone));

function startOfDayMs(day: string, zone: string): number {
  return zone === 'UTC' ? utcMidnight(day) : memoizedStartOfDay(day, zone);
}

/** Whether the zone's offset changes during the day (the days a clock may fall back across midnight). */
const changesOffset = memoizedPerDay(
  (day, zone) => offsetAt(startOfDayMs(day, zone), zone) !== offsetAt(startOfDayMs(addDays(day, 1), zone) - 1, zone),
);

/**
 * The instant the calendar day begins in the zone: the first instant whose local date is `day`.
 * Usually local midnight; when a DST change skips midnight, the instant of the change.
 */
export function startOfDay(day: string, zone: string): Date {
  return new Date(startOfDayMs(day, zone));
}

function computeStartOfDay(day: string, zone: string): number {
  const midnight = utcMidnight(day);
  // Every offset the zone uses around that day (offsets lie within -14h..+14h).
  const offsets = new Set<number>();
  for (let h = -15; h <= 15; h += 3) offsets.add(offsetAt(midnight + h * 3_600_000, zone));
  const candidates = [...offsets]
    .map((offset) => midnight - offset)
    .filter((t) => offsetAt(t, zone) === midnight - t)
    .sort((a, b) => a - b);
  const first = candidates[0];
  if (first !== undefined) return first;
  // Local midnight does not exist that day: find the first instant of the day by bisection.
  let low = midnight - 15 * 3_600_000; // still the day before
  let high = midnight + 15 * 3_600_000; // already `day` or later
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (calendarDayByIntl(mid, zone) >= day) high = mid;
    else low = mid;
  }
  return high;
}

/** The day `n` days after `day` (n may be negative). */
export function addDays(day: string, n: number): string {
  const d = new Date(utcMidnight(day) + n * DAY_MS);
  return formatDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/** The instant the day after `day` begins: the end (exclusive) of `day`. */
export function endOfDay(day: string, zone: string): Date {
  return startOfDay(addDays(day, 1), zone);
}
