/** The topic's end offsets as read at one instant (taken just before the read). */
export interface EndsSnapshot {
  readonly at: number;
  readonly ends: ReadonlyMap<number, number>;
}

/**
 * The instant up to which the read model is known current, from snapshots of the topic's end
 * offsets and the group's committed offsets: partition p is current as of the latest snapshot
 * whose end offset its committed position has reached (offsets are committed only after their
 * events' writes are durable), and the read model as of the earliest of its partitions. So under
 * steady load, where the lag is never exactly zero, the instant still moves, trailing by the lag.
 * Pure: the caller keeps the snapshots (a bounded window) and reads the offsets.
 */
export function currentInstant(snapshots: readonly EndsSnapshot[], positions: ReadonlyMap<number, number>): number | null {
  let overall: number | null = null;
  const partitions = new Set(snapshots.flatMap((s) => [...s.ends.keys()]));
  for (const partition of partitions) {
    const position = positions.get(partition) ?? 0;
    let current: number | null = null;
    for (const snapshot of snapshots) {
      const end = snapshot.ends.get(partition);
      // A partition that did not exist in a snapshot held nothing then.
      if ((end === undefined || position >= end) && (current === null || snapshot.at > current)) current = snapshot.at;
    }
    if (current === null) return null;
    overall = overall === null ? current : Math.min(overall, current);
  }
  return overall ?? (snapshots.length > 0 ? Math.max(...snapshots.map((s) => s.at)) : null);
}

/** The window of snapshots: the newest `size`; a partition further behind than the window is not current yet. */
export function keepSnapshots(snapshots: readonly EndsSnapshot[], next: EndsSnapshot, size: number): EndsSnapshot[] {
  return [...snapshots, next].slice(-size);
}
