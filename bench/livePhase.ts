/** One steady-rate phase of the live measurement, as the worker reports it to bench/projector.ts. */
export interface LivePhase {
  rate: number;
  sent: number;
  achievedRate: number;
  p50Ms: number;
  p99Ms: number;
  /**
   * The producer held the rate (it shares this process, so above some rate it cannot) and every
   * event was applied within a second of it stopping: no backlog built up.
   */
  sustained: boolean;
  /** How long the backlog took to drain after the producer stopped (capped). */
  drainMs: number;
  /** Events still unapplied when the drain wait ended (their delays are missing from p50/p99). */
  unapplied: number;
  probe?: boolean;
}
