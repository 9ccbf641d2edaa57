import { collectionName } from '../../services/mongo/index.ts';
import { projectorCollections, readCollections } from '../../services/readModel/documents.ts';

export interface ProjectionCollections {
  states: { competition: string; person: string; club: string };
  memberLinks: string;
  revisions: string;
  read: { competitions: string; dancers: string; judges: string; coaches: string; clubs: string };
}

/** Every collection of one read-model generation (a rebuild fills the next one beside it). */
export function projectionCollections(generation: number): ProjectionCollections {
  const name = (base: string): string => collectionName(base, generation);
  return {
    states: {
      competition: name(projectorCollections.competitionStates),
      person: name(projectorCollections.personStates),
      club: name(projectorCollections.clubStates),
    },
    memberLinks: name(projectorCollections.memberLinks),
    revisions: name('subject_revisions'),
    read: {
      competitions: name(readCollections.competitions),
      dancers: name(readCollections.dancers),
      judges: name(readCollections.judges),
      coaches: name(readCollections.coaches),
      clubs: name(readCollections.clubs),
    },
  };
}

export function allCollectionNames(c: ProjectionCollections): string[] {
  return [...Object.values(c.states), c.memberLinks, c.revisions, ...Object.values(c.read)];
}
