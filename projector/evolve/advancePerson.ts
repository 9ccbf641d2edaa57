import { startOfDay } from '../../services/calendar/index.ts';
import type { PaidRoleState, PersonState } from './personState.ts';
import { lastOwnState } from './personState.ts';
import { deferPastExceptions } from './registryExceptions.ts';

// Time-driven transitions a person's own state goes through: rule 1 (archival of a dancer or
// judge at the start of the registryUntil day, deferred past an exception in force), rule 2
// (the dancer's links close with it) and rule 3 (status INACTIVE at membershipExpiresAt).

type PaidRole = 'dancer' | 'judge';

interface Transition {
  at: string;
  role: PaidRole;
  kind: 'archive' | 'inactive';
}

/** The instant rule 1 archives the role, when its own state is REGISTRY with a registryUntil. */
export function archivalDueAt(role: PaidRoleState, zone: string): string | null {
  const last = lastOwnState(role);
  if (!last || last.state !== 'REGISTRY' || role.registryUntil === null) return null;
  const dayStart = startOfDay(role.registryUntil, zone).toISOString();
  return deferPastExceptions(role.exceptions, dayStart > last.at ? dayStart : last.at);
}

function nextTransition(state: PersonState, zone: string): Transition | null {
  let next: Transition | null = null;
  for (const roleName of ['dancer', 'judge'] as const) {
    const role = state.roles[roleName];
    if (!role) continue;
    const archiveAt = archivalDueAt(role, zone);
    if (archiveAt !== null && (next === null || archiveAt < next.at)) next = { at: archiveAt, role: roleName, kind: 'archive' };
    if (role.inactiveDueAt !== null && role.status !== 'INACTIVE' && (next === null || role.inactiveDueAt < next.at)) {
      next = { at: role.inactiveDueAt, role: roleName, kind: 'inactive' };
    }
  }
  return next;
}

/** Rule 2: the dancer role's open club and coach links close at the archival instant. */
export function closeDancerLinks(state: PersonState, at: string): void {
  for (const link of state.links) {
    if (link.role === 'dancer' && link.closedAt === null) {
      link.closedAt = at;
      link.closedBy = 'archival';
    }
  }
}

/** Mutates a state copy: archives the role at `at` (and closes a dancer's links). */
export function archiveRole(state: PersonState, roleName: 'dancer' | 'coach' | 'judge', at: string): void {
  const role = state.roles[roleName];
  if (!role || lastOwnState(role)?.state === 'ARCHIVE') return;
  role.own.push({ at, state: 'ARCHIVE' });
  if (roleName === 'dancer') closeDancerLinks(state, at);
}

/** Mutates a state copy: applies every transition due at or before `instant`, each at its due instant. */
export function advancePersonInPlace(state: PersonState, instant: string, zone: string): void {
  for (let next = nextTransition(state, zone); next !== null && next.at <= instant; next = nextTransition(state, zone)) {
    if (next.kind === 'archive') {
      archiveRole(state, next.role, next.at);
    } else {
      const role = state.roles[next.role];
      if (role) {
        role.status = 'INACTIVE';
        role.inactiveDueAt = null;
      }
    }
  }
}

/**
 * The state with every transition due at or before `instant` applied: a new object, or the
 * input itself when nothing is due (callers never mutate the result; copying a state per
 * document made the writer's batches clone every person three times).
 */
export function advancePerson(state: PersonState, instant: Date | string, zone: string): PersonState {
  const at = typeof instant === 'string' ? instant : instant.toISOString();
  const due = nextTransition(state, zone);
  if (due === null || due.at > at) return state;
  const copy = copyForAdvance(state);
  advancePersonInPlace(copy, at, zone);
  return copy;
}

/**
 * A copy deep enough for advancePersonInPlace, which only appends to a paid role's `own`, sets its
 * `status`/`inactiveDueAt` and closes links; the rest is shared with the input, which nobody
 * mutates (a structuredClone of the whole person was a tenth of the pipeline's time).
 */
function copyForAdvance(state: PersonState): PersonState {
  const roles = { ...state.roles };
  if (roles.dancer) roles.dancer = { ...roles.dancer, own: [...roles.dancer.own] };
  if (roles.judge) roles.judge = { ...roles.judge, own: [...roles.judge.own] };
  return { ...state, roles, links: state.links.map((link) => ({ ...link })) };
}

/** The next instant a transition of the role falls due (after the state was advanced), or null. */
export function nextRoleDueAt(state: PersonState, roleName: PaidRole, zone: string): string | null {
  const role = state.roles[roleName];
  if (!role) return null;
  const dues = [archivalDueAt(role, zone), role.status !== 'INACTIVE' ? role.inactiveDueAt : null].filter((d) => d !== null);
  return dues.sort()[0] ?? null;
}
