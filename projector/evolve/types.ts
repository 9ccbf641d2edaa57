// Shared shapes of the pure core: configuration, outcomes, aggregate bookkeeping, intervals.

export interface ProjectionConfig {
  /** IANA zone of the federation calendar. */
  zone: string;
  /** Days a coach or club stays in the buffer before the archive takes it. */
  bufferPeriodDays: number;
}

export const defaultProjectionConfig: ProjectionConfig = Object.freeze({ zone: 'UTC', bufferPeriodDays: 30 });

/**
 * - applied: the event was applied in sequence;
 * - gap: applied, but versions were skipped before it (count and log it);
 * - duplicate: eventId seen or version at or below the applied one; nothing changed;
 * - ignored: valid but inapplicable (unknown category, event after deletion...); version advanced.
 */
export type Outcome = 'applied' | 'gap' | 'duplicate' | 'ignored';

export interface EvolveResult<S> {
  state: S;
  outcome: Outcome;
}

/** Bookkeeping every aggregate state carries. */
export interface AggregateMeta {
  _id: string;
  id: string;
  /** Last applied aggregateVersion (0 before the first event). */
  version: number;
  /** The last RECENT_EVENT_IDS event ids applied, oldest first. */
  recentEventIds: string[];
  /** How many version gaps were seen. */
  gaps: number;
  /** occurredAt (canonical) of the last applied event. */
  lastEventAt: string | null;
}

/** Instants [from, to); `to: null` means "still, as of the computation". */
export interface Interval {
  from: string;
  to: string | null;
}

/** State of a registry record as the record itself knows it (activations and archivals). */
export type OwnState = 'REGISTRY' | 'ARCHIVE';

export interface OwnTransition {
  at: string;
  state: OwnState;
}

/** A bounded administrator exception; in force for from <= t < min(until, endedAt). */
export interface RegistryException {
  state: OwnState;
  from: string;
  until: string;
  /** Set when lifted or replaced by a later placement before `until`. */
  endedAt: string | null;
}
