import type { Period } from './documents.ts';

/** Period of a competition on the calendar day `today`; running today is ongoing all day. */
export function classifyPeriod(dates: { start: string; end: string }, today: string): Period {
  if (today < dates.start) return 'upcoming';
  if (today > dates.end) return 'past';
  return 'ongoing';
}

/** The Mongo filter on `dates` that selects a period on `today` (same rule as classifyPeriod). */
export function periodFilter(period: Period, today: string): Record<string, unknown> {
  switch (period) {
    case 'upcoming':
      return { 'dates.start': { $gt: today } };
    case 'past':
      return { 'dates.end': { $lt: today } };
    case 'ongoing':
      return { 'dates.start': { $lte: today }, 'dates.end': { $gte: today } };
  }
}
