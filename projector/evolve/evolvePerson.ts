import type { DomainEvent, EventOfType } from '../../services/events/index.ts';
import { canonicalInstant } from '../../services/readModel/index.ts';
import { advancePersonInPlace, archiveRole } from './advancePerson.ts';
import {
  changeMembershipStatus,
  changeRoleDetails,
  grantRole,
  liftException,
  payMembership,
  placeException,
  reinstateRole,
} from './personRoleEvents.ts';
import type { PersonState } from './personState.ts';
import type { EvolveResult, Outcome, ProjectionConfig } from './types.ts';
import { classifyVersion, recordEvent } from './versioning.ts';

export type PersonEvent = Extract<DomainEvent, { type: `person.${string}` }>;

/**
 * Applies one person event: duplicates change nothing; every transition due at or before the
 * event's occurredAt is applied first, at its due instant.
 */
export function evolvePerson(state: PersonState, event: PersonEvent, config: ProjectionConfig): EvolveResult<PersonState> {
  if (classifyVersion(state, event) === 'duplicate') return { state, outcome: 'duplicate' };
  const next = structuredClone(state);
  return { state: next, outcome: evolvePersonInPlace(next, event, config) };
}

/** evolvePerson on a state the caller owns (the writer's batch): mutates instead of copying. */
export function evolvePersonInPlace(state: PersonState, event: PersonEvent, config: ProjectionConfig): Outcome {
  const version = classifyVersion(state, event);
  if (version === 'duplicate') return 'duplicate';
  const at = canonicalInstant(event.occurredAt);
  advancePersonInPlace(state, at, config.zone);
  const applied = apply(state, event, at);
  const outcome = applied ? version : 'ignored';
  recordEvent(state, event, at, outcome);
  return outcome;
}

function apply(state: PersonState, event: PersonEvent, at: string): boolean {
  switch (event.type) {
    case 'person.registered':
      state.details = structuredClone(event.data);
      return true;
    case 'person.details_changed':
      changeDetails(state, event);
      return true;
    case 'person.role_granted':
      grantRole(state, event, at);
      return true;
    case 'person.role_details_changed':
      return changeRoleDetails(state, event);
    case 'person.membership_paid':
      return payMembership(state, event);
    case 'person.membership_status_changed':
      return changeMembershipStatus(state, event, at);
    case 'person.role_archived':
      if (!state.roles[event.data.role]) return false;
      archiveRole(state, event.data.role, at);
      return true;
    case 'person.role_reinstated':
      return reinstateRole(state, event, at);
    case 'person.exception_placed':
      return placeException(state, event, at);
    case 'person.exception_lifted':
      return liftException(state, event, at);
    case 'person.club_joined':
      return openLink(state, 'club', event.data.role, event.data.clubId, event.data.since, at);
    case 'person.club_left':
      return closeLink(state, 'club', event.data.role, event.data.clubId, at);
    case 'person.coach_assigned':
      return openLink(state, 'coach', 'dancer', event.data.coachId, event.data.since, at);
    case 'person.coach_unassigned':
      return closeLink(state, 'coach', 'dancer', event.data.coachId, at);
  }
}

/** A change names only the fields it changes; the others keep their value, or are null before any (no registration yet). */
function changeDetails(state: PersonState, event: EventOfType<'person.details_changed'>): void {
  state.details = {
    name: null,
    surname: null,
    nameEn: null,
    surnameEn: null,
    sex: null,
    avatar: null,
    country: null,
    ...state.details,
    ...structuredClone(event.data),
  };
}

function openLink(
  state: PersonState,
  kind: 'club' | 'coach',
  role: 'dancer' | 'coach',
  subjectId: string,
  since: string,
  at: string,
): boolean {
  const open = state.links.find((l) => l.kind === kind && l.role === role && l.subjectId === subjectId && l.closedAt === null);
  if (open) {
    open.since = since;
    return true;
  }
  state.links.push({ kind, role, subjectId, since, openedAt: at, closedAt: null, closedBy: null });
  return true;
}

function closeLink(state: PersonState, kind: 'club' | 'coach', role: 'dancer' | 'coach', subjectId: string, at: string): boolean {
  const open = state.links.find((l) => l.kind === kind && l.role === role && l.subjectId === subjectId && l.closedAt === null);
  if (!open) return false;
  open.closedAt = at;
  open.closedBy = 'left';
  return true;
}
