import type { DomainEvent } from '../../services/events/index.ts';
import { canonicalInstant } from '../../services/readModel/index.ts';
import type { ClubState } from './clubState.ts';
import { exceptionEnd } from './registryExceptions.ts';
import type { EvolveResult, Outcome, ProjectionConfig } from './types.ts';
import { classifyVersion, recordEvent } from './versioning.ts';

export type ClubEvent = Extract<DomainEvent, { type: `club.${string}` }>;

/** Applies one club event (duplicates change nothing). The club's own state has no clock of its own. */
export function evolveClub(state: ClubState, event: ClubEvent, _config?: ProjectionConfig): EvolveResult<ClubState> {
  if (classifyVersion(state, event) === 'duplicate') return { state, outcome: 'duplicate' };
  const next = structuredClone(state);
  return { state: next, outcome: evolveClubInPlace(next, event) };
}

/** evolveClub on a state the caller owns (the writer's batch): mutates instead of copying. */
export function evolveClubInPlace(state: ClubState, event: ClubEvent): Outcome {
  const version = classifyVersion(state, event);
  if (version === 'duplicate') return 'duplicate';
  const at = canonicalInstant(event.occurredAt);
  const applied = apply(state, event, at);
  const outcome = applied ? version : 'ignored';
  recordEvent(state, event, at, outcome);
  return outcome;
}

function setMain(state: ClubState, locationId: string): boolean {
  if (!state.locations.some((l) => l.id === locationId)) return false;
  for (const location of state.locations) location.type = location.id === locationId ? 'main' : 'branch';
  return true;
}

function endException(state: ClubState, at: string): void {
  for (const e of state.exceptions) if (e.from <= at && at < exceptionEnd(e)) e.endedAt = at;
}

const lastOwn = (state: ClubState): string | undefined => state.own[state.own.length - 1]?.state;

function apply(state: ClubState, event: ClubEvent, at: string): boolean {
  switch (event.type) {
    case 'club.registered': {
      const { locations, approvedAt, ...details } = structuredClone(event.data);
      Object.assign(state, details);
      state.approvedAt = approvedAt === null ? null : canonicalInstant(approvedAt);
      state.locations = locations;
      const main = locations.find((l) => l.type === 'main');
      if (main) setMain(state, main.id);
      if (!state.registered) state.own.push({ at, state: 'REGISTRY' });
      state.registered = true;
      return true;
    }
    case 'club.details_changed': {
      const { approvedAt, ...details } = structuredClone(event.data);
      Object.assign(state, details);
      if (approvedAt !== undefined) state.approvedAt = approvedAt === null ? null : canonicalInstant(approvedAt);
      return true;
    }
    case 'club.location_added': {
      const location = structuredClone(event.data.location);
      const existing = state.locations.findIndex((l) => l.id === location.id);
      if (existing >= 0) state.locations[existing] = location;
      else state.locations.push(location);
      // A second main demotes the first, so that exactly one main remains.
      if (location.type === 'main') setMain(state, location.id);
      return true;
    }
    case 'club.location_changed': {
      const location = state.locations.find((l) => l.id === event.data.locationId);
      if (!location) return false;
      Object.assign(location, structuredClone(event.data.changes));
      return true;
    }
    case 'club.location_removed': {
      const before = state.locations.length;
      state.locations = state.locations.filter((l) => l.id !== event.data.locationId);
      return state.locations.length < before;
    }
    case 'club.main_location_set':
      return setMain(state, event.data.locationId);
    case 'club.archived':
      if (lastOwn(state) !== 'ARCHIVE') state.own.push({ at, state: 'ARCHIVE' });
      return true;
    case 'club.reinstated':
      // Recorded even when the own state is REGISTRY: the buffer archival is derived, not stored.
      state.own.push({ at, state: 'REGISTRY' });
      return true;
    case 'club.exception_placed':
      endException(state, at);
      state.exceptions.push({ state: event.data.registryState, from: at, until: canonicalInstant(event.data.until), endedAt: null });
      return true;
    case 'club.exception_lifted':
      endException(state, at);
      return true;
  }
}
