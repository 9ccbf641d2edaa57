import type { EventData, MembershipStatus, Role } from '../services/events/index.ts';
import type { Random } from './random.ts';
import { DAY, calendarDate, startOfDay } from './time.ts';
import type { CoachRef } from './world.ts';

/** What a person's later decisions need to know about one of its roles. */
export interface RoleState {
  /** Start of the day the clock archives a paid role (epoch seconds); null while none is set. */
  registryUntil: number | null;
  status: MembershipStatus | null;
  archivedExplicitly: boolean;
  exceptionUntil: number;
  clubId: string | null;
  /** danceClass, highestClass or judgeCategory. */
  level: number | null;
  hasPartner: boolean;
  /** The coach role's entry in the world's coach list. */
  coachRef: CoachRef | null;
}

const CLASS_WEIGHTS = [
  [1, 5],
  [2, 5],
  [3, 4],
  [4, 3],
  [5, 3],
  [6, 2],
  [7, 2],
  [8, 1],
  [9, 1],
  [10, 1],
] as const;

export function newRoleState(random: Random, role: Role, at: number): RoleState {
  return {
    // A new member of a paid role gets a few weeks to pay before the clock archives the role.
    registryUntil: role !== 'coach' && random.chance(0.7) ? startOfDay(at) + random.int(30, 60) * DAY : null,
    status: null,
    archivedExplicitly: false,
    exceptionUntil: 0,
    clubId: null,
    level: role === 'judge' ? random.int(1, 5) : random.chance(0.9) ? random.weighted(CLASS_WEIGHTS) : null,
    hasPartner: random.chance(0.6),
    coachRef: null,
  };
}

export function grantData(random: Random, role: Role, state: RoleState, approvedAt: string): EventData<'person.role_granted'> {
  const registryUntil = state.registryUntil === null ? null : calendarDate(state.registryUntil);
  if (role === 'dancer') return { role, approvedAt, registryUntil, danceClass: state.level, hasPartner: state.hasPartner };
  if (role === 'coach') return { role, approvedAt, registryUntil: null, highestClass: state.level };
  const positions = random.sample(
    ['judge', 'headJudge', 'sportsInspector'] as const,
    random.weighted([
      [1, 70],
      [2, 25],
      [3, 5],
    ] as const),
  );
  return { role, approvedAt, registryUntil, judgeCategory: state.level, positions };
}

/** Promotions and corrections of a role's own fields; updates `state` to match. */
export function roleChanges(random: Random, role: Role, state: RoleState): EventData<'person.role_details_changed'> {
  const promoted = Math.min(role === 'judge' ? 5 : 10, (state.level ?? 0) + 1);
  if (role === 'dancer') {
    if (random.chance(0.4)) {
      state.hasPartner = !state.hasPartner;
      return { role, changes: { hasPartner: state.hasPartner } };
    }
    state.level = promoted;
    return { role, changes: { danceClass: promoted } };
  }
  if (role === 'coach') {
    state.level = promoted;
    return { role, changes: { highestClass: promoted } };
  }
  if (random.chance(0.5)) return { role, changes: { positions: ['judge', 'headJudge'] } };
  state.level = promoted;
  return { role, changes: { judgeCategory: promoted } };
}
