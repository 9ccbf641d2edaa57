/**
 * How long a partition with work to do may go without a commit before it counts as stalled
 * (decisions.md, "Hostile input": "a partition with lag that has not committed for 60 s").
 */
export const STALL_AFTER_MS = 60_000;

/** The longest error text kept per partition (it goes into a metric label and the status). */
const MAX_ERROR_CHARS = 200;

export interface PartitionStall {
  partition: number;
  /** The first offset not yet committed (the chunk being retried, when one failed). */
  offset: string;
  /** Seconds since the partition last committed, or since it had work, whichever is later. */
  ageSeconds: number;
  /** The last error of the chunk retried there, if one failed since the last commit. */
  lastError: string | null;
}

interface Pending {
  offset: string;
  /** When the partition last committed, or got work after having none (ms on the clock). */
  sinceMs: number;
  lastError: string | null;
}

/**
 * Per partition this instance consumes: whether it has fetched work it has not committed, since
 * when it has not committed, and the last error of a chunk retried there. A chunk that fails on
 * the database or the broker is retried until it passes; while it does, nothing else on its
 * partition moves, so a partition that has not committed for `stallAfterMs` with work to do is
 * reported (readiness, the stall gauges, `npm run status`), whatever the cause.
 */
export class PartitionProgress {
  private readonly pending = new Map<number, Pending>();
  private readonly clock: () => number;
  readonly stallAfterMs: number;

  constructor(clock: () => number, stallAfterMs = STALL_AFTER_MS) {
    this.clock = clock;
    this.stallAfterMs = stallAfterMs;
  }

  /** A chunk starting at `offset` is about to be applied. */
  working(partition: number, offset: string): void {
    const known = this.pending.get(partition);
    if (known) known.offset = offset;
    else this.pending.set(partition, { offset, sinceMs: this.clock(), lastError: null });
  }

  /** The chunk starting at `offset` failed and will be read again. */
  failed(partition: number, offset: string, error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const lastError = text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
    const known = this.pending.get(partition);
    if (known) Object.assign(known, { offset, lastError });
    else this.pending.set(partition, { offset, sinceMs: this.clock(), lastError });
  }

  /** Offsets up to `offset` are committed; `lag` messages remain after it. */
  committed(partition: number, offset: string, lag: number): void {
    if (lag === 0) {
      this.pending.delete(partition);
      return;
    }
    this.pending.set(partition, { offset: (BigInt(offset) + 1n).toString(), sinceMs: this.clock(), lastError: null });
  }

  /** After a rebalance: partitions now consumed elsewhere are not this instance's. */
  keepOnly(partitions: ReadonlySet<number>): void {
    for (const partition of this.pending.keys()) if (!partitions.has(partition)) this.pending.delete(partition);
  }

  /** Every partition with work, in partition order, with how long it has gone without a commit. */
  partitions(): PartitionStall[] {
    const now = this.clock();
    return [...this.pending]
      .map(([partition, p]) => ({ partition, offset: p.offset, ageSeconds: Math.max(0, (now - p.sinceMs) / 1000), lastError: p.lastError }))
      .sort((a, b) => a.partition - b.partition);
  }

  /** The partitions that have had work and no commit for `stallAfterMs` or longer. */
  stalled(): PartitionStall[] {
    return this.partitions().filter((p) => p.ageSeconds * 1000 >= this.stallAfterMs);
  }
}
