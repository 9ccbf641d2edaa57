import type { Interval } from './types.ts';

// Intervals use canonical UTC strings, so comparing strings compares instants.

const end = (interval: Interval): string => interval.to ?? '\uffff';

/** Sorted, disjoint union (touching intervals merge). Empty intervals are dropped. */
export function unionIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.to === null || i.to > i.from).sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const out: Interval[] = [];
  for (const interval of sorted) {
    const last = out[out.length - 1];
    if (last && interval.from <= end(last)) {
      if (end(interval) > end(last)) last.to = interval.to;
    } else {
      out.push({ from: interval.from, to: interval.to });
    }
  }
  return out;
}

/** Intersection of two interval sets (both unioned first). */
export function intersectIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const left = unionIntervals(a);
  const right = unionIntervals(b);
  const out: Interval[] = [];
  for (const x of left) {
    for (const y of right) {
      const from = x.from > y.from ? x.from : y.from;
      const toEnd = end(x) < end(y) ? end(x) : end(y);
      if (toEnd > from) out.push({ from, to: toEnd === '\uffff' ? null : toEnd });
    }
  }
  return unionIntervals(out);
}

/** Whether the instant lies in one of the intervals. */
export function covers(intervals: readonly Interval[], instant: string): boolean {
  return intervals.some((i) => i.from <= instant && instant < end(i));
}
