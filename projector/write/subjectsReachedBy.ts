import type { MemberLinkFact, PersonState } from '../evolve/index.ts';

/** The derived subjects (coaches and clubs) whose documents depend on some member's facts. */
export interface Reached {
  coaches: Set<string>;
  clubs: Set<string>;
}

/**
 * Which derived subjects a member's link facts reach: the subject of each fact (a dancer's club
 * and coaches, a coach's clubs), and the member itself when it holds the coach role (its own
 * coach document is derived, not owned). The one wiring of person → coach → club: the writer's
 * cascade and the test oracle both follow it.
 */
export function subjectsReachedBy(member: PersonState | undefined, facts: Iterable<MemberLinkFact>): Reached {
  const reached: Reached = { coaches: new Set(), clubs: new Set() };
  if (member?.roles.coach) reached.coaches.add(member._id);
  for (const fact of facts) (fact.kind === 'club' ? reached.clubs : reached.coaches).add(fact.subjectId);
  return reached;
}
