import type { ConsumerConfig } from 'kafkajs';
import { MEMBERSHIP_DEFAULTS } from '../../services/config/index.ts';
import { DEFAULT_SESSION_TIMEOUT_MS, FETCH_LIMITS } from './consumerDefaults.ts';

/** Which group a member joins, how much it fetches and how it keeps its place in the group. */
export interface MemberOptions {
  groupId: string;
  /** Fetch sizes; default FETCH_LIMITS (a rebuild fetches more, see REPLAY_FETCH_LIMITS). */
  fetchLimits?: { maxBytes: number; maxBytesPerPartition: number };
  /** The group membership's timings (services/config/groupMembership.ts); each defaults to MEMBERSHIP_DEFAULTS. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  rebalanceTimeoutMs?: number;
}

/**
 * The kafkajs configuration of every member the projector starts. The heartbeat is at most a
 * third of the session, as Kafka advises, so one late heartbeat does not cost the membership.
 */
export function memberConfig(opts: MemberOptions): ConsumerConfig & { heartbeatInterval: number } {
  const sessionTimeout = opts.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const heartbeatInterval = Math.min(opts.heartbeatIntervalMs ?? MEMBERSHIP_DEFAULTS.heartbeatIntervalMs, sessionTimeout / 3);
  return {
    groupId: opts.groupId,
    sessionTimeout,
    heartbeatInterval,
    rebalanceTimeout: opts.rebalanceTimeoutMs ?? MEMBERSHIP_DEFAULTS.rebalanceTimeoutMs,
    // kafkajs heartbeats (and so learns of a rebalance) only between fetches, and stops only once
    // the fetch in flight returns: with its default wait a quiet topic delayed both.
    maxWaitTimeInMs: heartbeatInterval,
    ...(opts.fetchLimits ?? FETCH_LIMITS),
  };
}
