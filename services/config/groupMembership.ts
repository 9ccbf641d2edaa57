/**
 * How a projector instance keeps its place in the consumer group, and so how soon its
 * partitions move to the others when it stops (docs/operating.md, "Fail-over and session
 * timeout"; the measurements are in docs/performance.md, "Fail-over").
 */
export interface GroupMembership {
  /**
   * How long the broker waits for a silent member before it hands the member's partitions to the
   * others: the freshness a crash costs. Kafka's brokers refuse less than 6 s by default.
   */
  sessionTimeoutMs: number;
  /**
   * How often a member tells the broker it is alive, and learns of a rebalance: a survivor
   * rejoins within one interval of a member leaving or joining, which is the freshness a rolling
   * restart costs. Also the longest a fetch waits on a quiet topic, so a stopping instance is
   * never held up by a fetch in flight for longer than this.
   */
  heartbeatIntervalMs: number;
  /**
   * How long a rebalance waits for a member busy with a chunk to rejoin; every partition waits
   * with it. Above the longest chunk of a catch-up: a member dropped mid-chunk has that chunk
   * folded again by the new owner and rejoins in a second rebalance, and while a backlog lasts
   * that could repeat. A member stuck longer (its database hung) holds the group this long.
   */
  rebalanceTimeoutMs: number;
}

export const MEMBERSHIP_DEFAULTS: Readonly<GroupMembership> = Object.freeze({
  sessionTimeoutMs: 6_000,
  heartbeatIntervalMs: 500,
  rebalanceTimeoutMs: 120_000,
});
