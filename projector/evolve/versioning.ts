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

/**
 * Bookkeeping after applying (or deliberately ignoring) an event at `at` (its canonical
 * occurredAt); mutates the given state, its id list in place (called once per event).
 */
export function recordEvent(state: AggregateMeta, event: EnvelopeRef, at: string, outcome: Outcome): void {
  state.version = event.aggregateVersion;
  state.recentEventIds.push(event.eventId);
  if (state.recentEventIds.length > RECENT_EVENT_IDS) state.recentEventIds.splice(0, state.recentEventIds.length - RECENT_EVENT_IDS);
  if (outcome === 'gap') state.gaps += 1;
  state.lastEventAt = at;
}

export function initialMeta(id: string): AggregateMeta {
  return { _id: id, id, version: 0, recentEventIds: [], gaps: 0, lastEventAt: null };
}
