import { collectionName } from '../../services/mongo/index.ts';
import { projectorCollections, readCollections } from '../../services/readModel/documents.ts';
import { TALLIES_COLLECTION } from '../../services/readModel/facets.ts';

export interface ProjectionCollections {
  states: { competition: string; person: string; club: string };
  /** A competition's entries, one record each (projector/write/competitionEntryRecords.ts), format 5 on. */
  competitionEntries: string;
  /** A person's links, one record per subject (projector/write/personLinkRecords.ts), format 6 on. */
  personLinks: string;
  memberLinks: string;
  revisions: string;
  /** The counts of the read documents' facet keys (projector/write/talliedBulk.ts), format 4 on. */
  tallies: string;
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
    competitionEntries: name(projectorCollections.competitionEntries),
    personLinks: name(projectorCollections.personLinks),
    memberLinks: name(projectorCollections.memberLinks),
    revisions: name('subject_revisions'),
    tallies: name(TALLIES_COLLECTION),
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
  return [...Object.values(c.states), c.competitionEntries, c.personLinks, c.memberLinks, c.revisions, c.tallies, ...Object.values(c.read)];
}
