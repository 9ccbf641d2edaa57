import type { EventOfType } from '../../services/events/index.ts';
import { canonicalInstant } from '../../services/readModel/index.ts';
import type { CoachRoleState, DancerRoleState, JudgeRoleState, PersonState, RoleStateBase } from './personState.ts';
import { lastOwnState } from './personState.ts';
import { exceptionEnd } from './registryExceptions.ts';

// What the events about one of a person's roles do to it (evolvePerson's apply). Each returns
// false when the role does not exist: the event is valid but changes nothing.

const nullableInstant = (value: string | null): string | null => (value === null ? null : canonicalInstant(value));

export function grantRole(state: PersonState, event: EventOfType<'person.role_granted'>, at: string): void {
  const { data } = event;
  const base = {
    approvedAt: canonicalInstant(data.approvedAt),
    registryUntil: data.registryUntil,
  };
  const existing = state.roles[data.role];
  const common: RoleStateBase = existing ? { ...existing, ...base } : { grantedAt: at, own: [], exceptions: [], ...base };
  if (lastOwnState(common)?.state !== 'REGISTRY') common.own = [...common.own, { at, state: 'REGISTRY' }];
  const paid = { status: null, membershipExpiresAt: null, inactiveDueAt: null };
  switch (data.role) {
    case 'dancer': {
      const previous = state.roles.dancer;
      state.roles.dancer = { ...paid, ...previous, ...common, danceClass: data.danceClass, hasPartner: data.hasPartner };
      break;
    }
    case 'coach':
      state.roles.coach = { ...common, highestClass: data.highestClass };
      break;
    case 'judge': {
      const previous = state.roles.judge;
      state.roles.judge = { ...paid, ...previous, ...common, judgeCategory: data.judgeCategory, positions: [...data.positions] };
      break;
    }
  }
}

export function changeRoleDetails(state: PersonState, event: EventOfType<'person.role_details_changed'>): boolean {
  const { data } = event;
  const role = state.roles[data.role];
  if (!role) return false;
  const { approvedAt, registryUntil, ...fields } = data.changes as Partial<DancerRoleState & CoachRoleState & JudgeRoleState>;
  if (approvedAt !== undefined) role.approvedAt = nullableInstant(approvedAt);
  if (registryUntil !== undefined) role.registryUntil = registryUntil;
  Object.assign(role, structuredClone(fields));
  return true;
}

export function payMembership(state: PersonState, event: EventOfType<'person.membership_paid'>): boolean {
  const role = state.roles[event.data.role];
  if (!role) return false;
  role.status = event.data.status;
  role.membershipExpiresAt = canonicalInstant(event.data.membershipExpiresAt);
  role.registryUntil = event.data.registryUntil;
  role.inactiveDueAt = role.membershipExpiresAt;
  return true;
}

export function changeMembershipStatus(state: PersonState, event: EventOfType<'person.membership_status_changed'>, at: string): boolean {
  const role = state.roles[event.data.role];
  if (!role) return false;
  role.status = event.data.status;
  // A correction is kept: the status only lapses when the paid term ends after it.
  const expires = role.membershipExpiresAt;
  role.inactiveDueAt = event.data.status !== 'INACTIVE' && expires !== null && expires > at ? expires : null;
  return true;
}

export function reinstateRole(state: PersonState, event: EventOfType<'person.role_reinstated'>, at: string): boolean {
  const role = state.roles[event.data.role];
  if (!role) return false;
  role.registryUntil = event.data.registryUntil;
  // Recorded even when the own state is REGISTRY: a coach archived by the buffer (derived,
  // not stored) comes back through this instant.
  role.own.push({ at, state: 'REGISTRY' });
  return true;
}

/** A new exception ends the one in force, if any (rule 6). */
export function placeException(state: PersonState, event: EventOfType<'person.exception_placed'>, at: string): boolean {
  const role = state.roles[event.data.role];
  if (!role) return false;
  endException(role, at);
  role.exceptions.push({ state: event.data.registryState, from: at, until: canonicalInstant(event.data.until), endedAt: null });
  return true;
}

export function liftException(state: PersonState, event: EventOfType<'person.exception_lifted'>, at: string): boolean {
  const role = state.roles[event.data.role];
  if (!role) return false;
  endException(role, at);
  return true;
}

function endException(role: RoleStateBase, at: string): void {
  for (const e of role.exceptions) if (e.from <= at && at < exceptionEnd(e)) e.endedAt = at;
}
