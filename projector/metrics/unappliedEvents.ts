/**
 * Per partition, when the oldest message this instance has fetched but not yet applied was
 * appended to the log: the lag in seconds an operator alerts on is its age, read at scrape
 * time, so it keeps growing while a chunk hangs (a database away) and is 0 once caught up.
 * The age of the last applied event's `occurredAt` was not that: a quiet, caught-up projector
 * reported days of lag.
 */
export class UnappliedEvents {
  /** Partition → append time (ms since the epoch) of its oldest unapplied message. */
  private readonly oldest = new Map<number, number>();

  /** From `appendedAtMs` on, the partition's messages are not applied yet. */
  pendingSince(partition: number, appendedAtMs: number): void {
    this.oldest.set(partition, appendedAtMs);
  }

  caughtUp(partition: number): void {
    this.oldest.delete(partition);
  }

  /** After a rebalance: partitions now consumed elsewhere are not this instance's lag. */
  keepOnly(partitions: ReadonlySet<number>): void {
    for (const partition of this.oldest.keys()) if (!partitions.has(partition)) this.oldest.delete(partition);
  }

  /** Seconds since the oldest unapplied message was appended; 0 when every partition is caught up. */
  ageSeconds(nowMs: number): number {
    if (this.oldest.size === 0) return 0;
    return Math.max(0, (nowMs - Math.min(...this.oldest.values())) / 1000);
  }
}
