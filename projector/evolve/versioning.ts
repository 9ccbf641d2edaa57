import type { AggregateMeta, Outcome } from './types.ts';

export const RECENT_EVENT_IDS = 64;

interface EnvelopeRef {
  eventId: string;
  aggregateVersion: number;
}

/** How an event relates to the state's version: duplicate, next in sequence, or after a gap. */
export function classifyVersion(state: AggregateMeta, event: EnvelopeRef): 'duplicate' | 'applied' | 'gap' {
  if (state.recentEventIds.includes(event.eventId)) return 'duplicate';
  if (event.aggregateVersion <= state.version) return 'duplicate';
  return event.aggregateVersion === state.version + 1 ? 'applied' : 'gap';
}

/** Bookkeeping after applying (or deliberately ignoring) an event; mutates the given copy. */
export function recordEvent(state: AggregateMeta, event: EnvelopeRef & { occurredAt: string }, outcome: Outcome): void {
  state.version = event.aggregateVersion;
  state.recentEventIds = [...state.recentEventIds, event.eventId].slice(-RECENT_EVENT_IDS);
  if (outcome === 'gap') state.gaps += 1;
  state.lastEventAt = event.occurredAt;
}

export function initialMeta(id: string): AggregateMeta {
  return { _id: id, id, version: 0, recentEventIds: [], gaps: 0, lastEventAt: null };
}
