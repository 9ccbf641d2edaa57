import type { EventData, Role, Sex } from '../services/events/index.ts';
import { Actor, type EventBody } from './actor.ts';
import { personChanges, personDetails, pickNation, placeIndexOf, nationAt, roleSet } from './personProfile.ts';
import { grantData, newRoleState, roleChanges, type RoleState } from './personRoles.ts';
import { DAY, HOUR, MINUTE, addMonths, calendarDate, dateTime, startOfDay } from './time.ts';
import { findClub, findCoach, type World } from './world.ts';

type PersonTaskKind =
  | 'register'
  | 'grant'
  | 'pay'
  | 'fixStatus'
  | 'archive'
  | 'reinstate'
  | 'placeException'
  | 'liftException'
  | 'changeRole'
  | 'changeDetails'
  | 'joinClub'
  | 'leaveClub'
  | 'assignCoach'
  | 'unassignCoach';

const ROLES: readonly Role[] = ['dancer', 'coach', 'judge'];
const days = (n: number): number => n * DAY;
const GRACE = days(90);

export class PersonActor extends Actor<PersonTaskKind> {
  private readonly imported: boolean;
  private nation = 0;
  private sex: Sex = 'MALE';
  private coachId: string | null = null;
  // One field per role rather than a record: one object fewer per person.
  private dancer: RoleState | undefined = undefined;
  private coach: RoleState | undefined = undefined;
  private judge: RoleState | undefined = undefined;

  /** `imported`: brought over from the previous registry, so approved long before the event. */
  constructor(world: World, at: number, imported: boolean) {
    super(world);
    this.imported = imported;
    this.plan(at, 'register');
  }

  /** `ref`: the index in ROLES of the role the plan is about. */
  protected act(kind: PersonTaskKind, ref: number, at: number): EventBody | null {
    const role = ROLES[ref] ?? 'dancer';
    switch (kind) {
      case 'register':
        return this.register(at);
      case 'grant':
        return this.grant(at, role);
      case 'changeDetails':
        return { type: 'person.details_changed', data: personChanges(this.world.random, this.nation, this.sex) };
      case 'pay':
        return this.pay(at, role);
      case 'fixStatus':
        return this.fixStatus(role);
      case 'archive':
        return this.archive(at, role);
      case 'reinstate':
        return this.isArchived(role, at) ? this.reinstate(at, role) : null;
      case 'placeException':
        return this.placeException(at, role);
      case 'liftException':
        return this.liftException(at, role);
      case 'changeRole':
        return this.changeRole(role);
      case 'joinClub':
        return this.joinClub(at, role);
      case 'leaveClub':
        return this.leaveClub(at, role);
      case 'assignCoach':
        return this.assignCoach(at);
      case 'unassignCoach':
        return this.unassignCoach(at);
    }
  }

  private planFor(at: number, kind: PersonTaskKind, role: Role): void {
    this.plan(at, kind, ROLES.indexOf(role));
  }

  private later(at: number, kind: PersonTaskKind, role: Role, fromDays: number, toDays: number): void {
    this.planFor(at + days(fromDays) + this.world.random.float() * days(toDays - fromDays), kind, role);
  }

  private stateOf(role: Role): RoleState | undefined {
    return role === 'dancer' ? this.dancer : role === 'coach' ? this.coach : this.judge;
  }

  private isArchived(role: Role, at: number): boolean {
    const state = this.stateOf(role);
    if (state === undefined) return false;
    return state.archivedExplicitly || (state.registryUntil !== null && at >= state.registryUntil);
  }

  /** An archival closes the role's club and coach links (events.md, rule 2). */
  private closeLinks(role: Role, state: RoleState): void {
    state.clubId = null;
    if (role === 'dancer') this.coachId = null;
    if (state.coachRef !== null) state.coachRef.active = false;
  }

  private register(at: number): EventBody {
    const { random } = this.world;
    this.nation = pickNation(random);
    this.sex = random.chance(0.52) ? 'FEMALE' : 'MALE';
    const roles = roleSet(random);
    roles.forEach((role, i) => {
      if (i === 0) this.planFor(at + (this.imported ? random.int(1, 30) * MINUTE : random.int(1, 120) * HOUR), 'grant', role);
      else if (this.imported && random.chance(0.7)) this.planFor(at + random.int(31, 90) * MINUTE, 'grant', role);
      else this.later(at, 'grant', role, 30, 1500);
    });
    if (random.chance(0.06)) this.later(at, 'changeDetails', 'dancer', 30, 2000);
    return { type: 'person.registered', data: personDetails(random, this.nation, this.sex) };
  }

  private grant(at: number, role: Role): EventBody {
    const { random } = this.world;
    const state = newRoleState(random, role, at);
    if (role === 'dancer') this.dancer = state;
    else if (role === 'coach') this.coach = state;
    else this.judge = state;
    const approvedAt = dateTime(this.imported ? at - random.int(0, 10 * 365) * DAY : at - random.int(0, 72) * HOUR);
    if (role !== 'coach' && random.chance(0.88)) this.planFor(at + random.int(1, 240) * HOUR, 'pay', role);
    if (role !== 'judge' && random.chance(0.85)) this.later(at, 'joinClub', role, 1, 30);
    if (role === 'dancer' && random.chance(0.45)) this.later(at, 'assignCoach', role, 5, 90);
    if (random.chance(0.03)) this.later(at, 'placeException', role, 30, 900);
    if (role === 'coach') {
      state.coachRef = { id: this.id, active: true };
      // Some coaches never get a dancer: they sit in the buffer until the archive takes them.
      if (random.chance(0.85)) this.world.coaches.push(state.coachRef);
      if (random.chance(0.2)) this.later(at, 'changeRole', role, 60, 1500);
      if (random.chance(0.05)) this.later(at, 'archive', role, 100, 2000);
    }
    return { type: 'person.role_granted', data: grantData(random, role, state, approvedAt) };
  }

  private pay(at: number, role: Role): EventBody | null {
    const { random } = this.world;
    const state = this.stateOf(role);
    if (state === undefined || role === 'coach') return null;
    // Paying after the archive took the role is a paid reinstatement.
    if (this.isArchived(role, at)) return this.reinstate(at, role);
    state.status =
      role === 'dancer' && (state.level ?? 1) <= 3 && random.chance(0.3) ? 'LIMITED' : random.chance(0.93) ? 'ACTIVE' : 'LIMITED';
    const expiresAt = addMonths(at, 12);
    state.registryUntil = startOfDay(expiresAt) + GRACE;
    const roll = random.float();
    if (roll < 0.45) this.planFor(Math.max(at + DAY, expiresAt - random.int(0, 30) * DAY), 'pay', role);
    // Late payers run INACTIVE for a while but stay listed until the grace period ends.
    else if (roll < 0.55) this.planFor(expiresAt + random.float() * (state.registryUntil - expiresAt - DAY), 'pay', role);
    // The rest let the clock archive the role; some come back long after.
    else if (random.chance(0.25)) this.later(state.registryUntil, 'pay', role, 5, 600);
    if (random.chance(0.04)) this.later(at, 'fixStatus', role, 1, 90);
    if (random.chance(0.08)) this.later(at, 'changeRole', role, 10, 300);
    if (random.chance(0.015)) this.later(at, 'archive', role, 10, 300);
    if (random.chance(0.02)) this.later(at, 'placeException', role, 1, 300);
    const data: EventData<'person.membership_paid'> = {
      role,
      status: state.status,
      membershipExpiresAt: dateTime(expiresAt),
      registryUntil: calendarDate(state.registryUntil),
    };
    return { type: 'person.membership_paid', data };
  }

  private fixStatus(role: Role): EventBody | null {
    const state = this.stateOf(role);
    if (state === undefined || state.status === null || role === 'coach') return null;
    const current = state.status;
    state.status = this.world.random.pick((['ACTIVE', 'LIMITED', 'INACTIVE'] as const).filter((s) => s !== current));
    return { type: 'person.membership_status_changed', data: { role, status: state.status } };
  }

  private archive(at: number, role: Role): EventBody | null {
    const state = this.stateOf(role);
    if (state === undefined || this.isArchived(role, at)) return null;
    state.archivedExplicitly = true;
    this.closeLinks(role, state);
    if (this.world.random.chance(0.35)) this.later(at, 'reinstate', role, 10, 400);
    return { type: 'person.role_archived', data: { role } };
  }

  private reinstate(at: number, role: Role): EventBody | null {
    const { random } = this.world;
    const state = this.stateOf(role);
    if (state === undefined) return null;
    // Links closed by the archival stay closed (events.md): coming back means joining again.
    this.closeLinks(role, state);
    state.archivedExplicitly = false;
    state.registryUntil = role === 'coach' ? null : startOfDay(at) + days(random.int(14, 60));
    if (state.coachRef !== null) state.coachRef.active = true;
    if (role !== 'coach' && random.chance(0.85)) this.planFor(at + random.int(1, 72) * HOUR, 'pay', role);
    if (role !== 'judge' && random.chance(0.6)) this.later(at, 'joinClub', role, 2, 40);
    return {
      type: 'person.role_reinstated',
      data: { role, registryUntil: state.registryUntil === null ? null : calendarDate(state.registryUntil) },
    };
  }

  private placeException(at: number, role: Role): EventBody | null {
    const { random } = this.world;
    const state = this.stateOf(role);
    if (state === undefined || state.exceptionUntil > at) return null;
    // Administrators hold archived members in the registry, or take listed ones out of it.
    const registryState = this.isArchived(role, at)
      ? random.chance(0.8)
        ? 'REGISTRY'
        : 'ARCHIVE'
      : random.chance(0.6)
        ? 'ARCHIVE'
        : 'REGISTRY';
    state.exceptionUntil = at + random.int(7, 240) * DAY;
    if (random.chance(0.35)) this.planFor(at + random.float() * (state.exceptionUntil - at), 'liftException', role);
    return { type: 'person.exception_placed', data: { role, registryState, until: dateTime(state.exceptionUntil) } };
  }

  private liftException(at: number, role: Role): EventBody | null {
    const state = this.stateOf(role);
    if (state === undefined || state.exceptionUntil <= at) return null;
    state.exceptionUntil = 0;
    return { type: 'person.exception_lifted', data: { role } };
  }

  private changeRole(role: Role): EventBody | null {
    const state = this.stateOf(role);
    if (state === undefined) return null;
    return { type: 'person.role_details_changed', data: roleChanges(this.world.random, role, state) };
  }

  private joinClub(at: number, role: Role): EventBody | null {
    const state = this.stateOf(role);
    if (role === 'judge' || state === undefined || state.clubId !== null || this.isArchived(role, at)) return null;
    const club = findClub(this.world, placeIndexOf(nationAt(this.nation)));
    if (club === null) return null;
    state.clubId = club.id;
    if (this.world.random.chance(0.18)) this.later(at, 'leaveClub', role, 30, 1500);
    return { type: 'person.club_joined', data: { role, clubId: club.id, since: calendarDate(at) } };
  }

  private leaveClub(at: number, role: Role): EventBody | null {
    const state = this.stateOf(role);
    if (role === 'judge' || state === undefined || state.clubId === null) return null;
    const clubId = state.clubId;
    state.clubId = null;
    if (this.isArchived(role, at)) return null;
    if (this.world.random.chance(0.5)) this.later(at, 'joinClub', role, 5, 60);
    return { type: 'person.club_left', data: { role, clubId } };
  }

  private assignCoach(at: number): EventBody | null {
    if (this.dancer === undefined || this.coachId !== null || this.isArchived('dancer', at)) return null;
    const coach = findCoach(this.world, this.id);
    if (coach === null) return null;
    this.coachId = coach.id;
    if (this.world.random.chance(0.2)) this.later(at, 'unassignCoach', 'dancer', 60, 900);
    return { type: 'person.coach_assigned', data: { coachId: coach.id, since: calendarDate(at) } };
  }

  private unassignCoach(at: number): EventBody | null {
    const coachId = this.coachId;
    if (coachId === null) return null;
    this.coachId = null;
    if (this.isArchived('dancer', at)) return null;
    if (this.world.random.chance(0.5)) this.later(at, 'assignCoach', 'dancer', 10, 90);
    return { type: 'person.coach_unassigned', data: { coachId } };
  }
}
