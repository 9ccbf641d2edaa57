import type { DomainEvent } from '../../services/events/index.ts';
import {
  initialClubState,
  initialCompetitionState,
  initialPersonState,
  type ClubEvent,
  type CompetitionEvent,
  type Outcome,
  type PersonEvent,
  type ProjectionConfig,
} from '../evolve/index.ts';
// The in-place folds are this loop's alone (eslint.config.js holds every other file to the pure
// `evolve*` of projector/evolve/index.ts): the states it mutates were loaded for this batch.
import { evolveClubInPlace } from '../evolve/evolveClub.ts';
import { evolveCompetitionInPlace } from '../evolve/evolveCompetition.ts';
import { evolvePersonInPlace } from '../evolve/evolvePerson.ts';
import type { StateKind, States } from './projectionStore.ts';

export const kindOf = (event: DomainEvent): StateKind =>
  event.type.startsWith('competition.') ? 'competition' : event.type.startsWith('person.') ? 'person' : 'club';

export interface Folded {
  /** One outcome per event, in input order. */
  outcomes: Outcome[];
  /** Persons with an event that came back as a duplicate: a replay after a crash (see planCascade). */
  replayed: Set<string>;
}

/**
 * Folds the events into the loaded states, in place (the loaded states belong to this batch
 * alone), starting an aggregate seen for the first time from its initial state.
 */
export function foldEvents(events: readonly DomainEvent[], states: States, config: ProjectionConfig): Folded {
  const outcomes = new Array<Outcome>(events.length);
  const replayed = new Set<string>();
  events.forEach((event, i) => {
    const id = event.aggregateId;
    switch (kindOf(event)) {
      case 'competition': {
        const state = states.competition.get(id) ?? initialCompetitionState(id);
        states.competition.set(id, state);
        outcomes[i] = evolveCompetitionInPlace(state, event as CompetitionEvent, config);
        return;
      }
      case 'person': {
        const state = states.person.get(id) ?? initialPersonState(id);
        states.person.set(id, state);
        outcomes[i] = evolvePersonInPlace(state, event as PersonEvent, config);
        if (outcomes[i] === 'duplicate') replayed.add(id);
        return;
      }
      case 'club': {
        const state = states.club.get(id) ?? initialClubState(id);
        states.club.set(id, state);
        outcomes[i] = evolveClubInPlace(state, event as ClubEvent);
      }
    }
  });
  return { outcomes, replayed };
}
