/** One produced event as the fail-over benchmark followed it, in milliseconds of its monotonic clock. */
export interface Tracked {
  partition: number;
  sentAt: number;
  /** When the poller first found it in the database; undefined while it has not. */
  visibleAt?: number;
}

/** What one fault cost. */
export interface FaultFigures {
  /** Longest produce → visible delay of the events that became visible from the fault until the next one. */
  longestDelayMs: number;
  /**
   * From the fault until every partition had an event produced after the fault visible: each
   * partition's backlog from before the fault was consumed by then, whoever owns it now.
   * Infinity when some partition had none before `end`.
   */
  allPartitionsMs: number;
}

/**
 * The figures of a fault at `faultAt` whose window ends at `end` (the next fault). An event
 * belongs to the last fault before it became visible: one held up by a fault shows after it,
 * however long before it was sent.
 */
export function faultFigures(events: readonly Tracked[], faultAt: number, end: number, partitions: number): FaultFigures {
  let longestDelayMs = 0;
  const firstAfter = new Array<number>(partitions).fill(Infinity);
  for (const e of events) {
    if (e.visibleAt === undefined || e.visibleAt < faultAt || e.visibleAt >= end) continue;
    longestDelayMs = Math.max(longestDelayMs, e.visibleAt - e.sentAt);
    if (e.sentAt >= faultAt) firstAfter[e.partition] = Math.min(firstAfter[e.partition]!, e.visibleAt);
  }
  return { longestDelayMs, allPartitionsMs: Math.max(...firstAfter) - faultAt };
}
