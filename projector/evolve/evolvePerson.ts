import type { DomainEvent, EventOfType } from '../../services/events/index.ts';
import { canonicalInstant } from '../../services/readModel/index.ts';
import { advancePersonInPlace, archiveRole } from './advancePerson.ts';
import type { CoachRoleState, DancerRoleState, JudgeRoleState, PersonState, RoleStateBase } from './personState.ts';
import { lastOwnState } from './personState.ts';
import { exceptionEnd } from './registryExceptions.ts';
import type { EvolveResult, Outcome, ProjectionConfig } from './types.ts';
import { classifyVersion, recordEvent } from './versioning.ts';

export type PersonEvent = Extract<DomainEvent, { type: `person.${string}` }>;

const nullableInstant = (value: string | null): string | null => (value === null ? null : canonicalInstant(value));

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

function endException(role: RoleStateBase, at: string): void {
  for (const e of role.exceptions) if (e.from <= at && at < exceptionEnd(e)) e.endedAt = at;
}

function grant(state: PersonState, event: EventOfType<'person.role_granted'>, at: string): void {
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

function changeRoleDetails(state: PersonState, event: EventOfType<'person.role_details_changed'>): boolean {
  const { data } = event;
  const role = state.roles[data.role];
  if (!role) return false;
  const { approvedAt, registryUntil, ...fields } = data.changes as Partial<DancerRoleState & CoachRoleState & JudgeRoleState>;
  if (approvedAt !== undefined) role.approvedAt = nullableInstant(approvedAt);
  if (registryUntil !== undefined) role.registryUntil = registryUntil;
  Object.assign(role, structuredClone(fields));
  return true;
}

function apply(state: PersonState, event: PersonEvent, at: string): boolean {
  switch (event.type) {
    case 'person.registered':
      state.details = structuredClone(event.data);
      return true;
    case 'person.details_changed':
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
      return true;
    case 'person.role_granted':
      grant(state, event, at);
      return true;
    case 'person.role_details_changed':
      return changeRoleDetails(state, event);
    case 'person.membership_paid': {
      const role = state.roles[event.data.role];
      if (!role) return false;
      role.status = event.data.status;
      role.membershipExpiresAt = canonicalInstant(event.data.membershipExpiresAt);
      role.registryUntil = event.data.registryUntil;
      role.inactiveDueAt = role.membershipExpiresAt;
      return true;
    }
    case 'person.membership_status_changed': {
      const role = state.roles[event.data.role];
      if (!role) return false;
      role.status = event.data.status;
      // A correction is kept: the status only lapses when the paid term ends after it.
      const expires = role.membershipExpiresAt;
      role.inactiveDueAt = event.data.status !== 'INACTIVE' && expires !== null && expires > at ? expires : null;
      return true;
    }
    case 'person.role_archived':
      if (!state.roles[event.data.role]) return false;
      archiveRole(state, event.data.role, at);
      return true;
    case 'person.role_reinstated': {
      const role = state.roles[event.data.role];
      if (!role) return false;
      role.registryUntil = event.data.registryUntil;
      // Recorded even when the own state is REGISTRY: a coach archived by the buffer (derived,
      // not stored) comes back through this instant.
      role.own.push({ at, state: 'REGISTRY' });
      return true;
    }
    case 'person.exception_placed': {
      const role = state.roles[event.data.role];
      if (!role) return false;
      endException(role, at);
      role.exceptions.push({ state: event.data.registryState, from: at, until: canonicalInstant(event.data.until), endedAt: null });
      return true;
    }
    case 'person.exception_lifted': {
      const role = state.roles[event.data.role];
      if (!role) return false;
      endException(role, at);
      return true;
    }
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
