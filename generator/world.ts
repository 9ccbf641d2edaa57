import { PLACES } from './places.ts';
import type { Random } from './random.ts';

/** What persons need to know about a registered club to join it. */
export interface ClubRef {
  readonly id: string;
  readonly name: string;
  readonly placeIndex: number;
  readonly website: string | null;
  archived: boolean;
  /** False for clubs nobody ever joins: they show the buffer and its archival. */
  readonly takesMembers: boolean;
}

/** What dancers need to know about a coach to be assigned to them. */
export interface CoachRef {
  readonly id: string;
  active: boolean;
}

/** A plan waiting for reuse (see Actor.plan); every aggregate's plans have this shape. */
export interface SpareTask {
  at: number;
  kind: string;
  ref: number;
  next: SpareTask | undefined;
}

/**
 * The facts aggregates share: the random source, the history's time frame (epoch seconds), and the clubs and
 * coaches that exist so far (an aggregate refers only to ones whose creating event came first).
 */
export interface World {
  readonly random: Random;
  readonly start: number;
  readonly now: number;
  readonly clubs: ClubRef[];
  readonly clubsByPlace: ClubRef[][];
  readonly coaches: CoachRef[];
  readonly slugs: Set<string>;
  readonly spareTasks: SpareTask[];
}

export function createWorld(random: Random, start: number, now: number): World {
  return { random, start, now, clubs: [], clubsByPlace: PLACES.map(() => []), coaches: [], slugs: new Set(), spareTasks: [] };
}

export function addClub(world: World, club: ClubRef): void {
  world.clubs.push(club);
  world.clubsByPlace[club.placeIndex]?.push(club);
}

/** A club that takes members, mostly from the person's own country; null if none turns up. */
export function findClub(world: World, placeIndex: number): ClubRef | null {
  const { random } = world;
  const local = world.clubsByPlace[placeIndex] ?? [];
  const pool = local.length > 0 && random.chance(0.85) ? local : world.clubs;
  if (pool.length === 0) return null;
  for (let attempt = 0; attempt < 6; attempt++) {
    const club = random.pick(pool);
    if (club.takesMembers && !club.archived) return club;
  }
  return null;
}

export function findCoach(world: World, exceptId: string): CoachRef | null {
  const { random, coaches } = world;
  if (coaches.length === 0) return null;
  for (let attempt = 0; attempt < 6; attempt++) {
    const coach = random.pick(coaches);
    if (coach.active && coach.id !== exceptId) return coach;
  }
  return null;
}
