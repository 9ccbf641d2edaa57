import type { DomainEvent } from '../../services/events/index.ts';
import type { ClubState } from './clubState.ts';
import type { CompetitionState } from './competitionState.ts';
import { evolveClub, type ClubEvent } from './evolveClub.ts';
import { evolveCompetition, type CompetitionEvent } from './evolveCompetition.ts';
import { evolvePerson, type PersonEvent } from './evolvePerson.ts';
import type { PersonState } from './personState.ts';
import type { EvolveResult, ProjectionConfig } from './types.ts';

export type EvolveContext = ProjectionConfig;

/** Dispatch by aggregate: the state passed must be the one of the event's aggregate. */
export function evolve(state: CompetitionState, event: CompetitionEvent, config: ProjectionConfig): EvolveResult<CompetitionState>;
export function evolve(state: PersonState, event: PersonEvent, config: ProjectionConfig): EvolveResult<PersonState>;
export function evolve(state: ClubState, event: ClubEvent, config: ProjectionConfig): EvolveResult<ClubState>;
export function evolve(
  state: CompetitionState | PersonState | ClubState,
  event: DomainEvent,
  config: ProjectionConfig,
): EvolveResult<CompetitionState | PersonState | ClubState> {
  if (event.type.startsWith('competition.')) return evolveCompetition(state as CompetitionState, event as CompetitionEvent, config);
  if (event.type.startsWith('person.')) return evolvePerson(state as PersonState, event as PersonEvent, config);
  return evolveClub(state as ClubState, event as ClubEvent, config);
}
