import type { DomainEvent } from '../../services/events/index.ts';
import type { MemberLinkFact, ProjectionConfig } from '../evolve/index.ts';
import type { LoadedBatch } from './loadBatch.ts';
import type { DueSubjects } from './planCascade.ts';
import { loadLinkHistory, loadNamedLinks, type LoadedLinks } from './personLinkRecords.ts';
import type { ProjectionStore } from './projectionStore.ts';

// A batch's persons and their link records (personLinkRecords.ts): the records the fold may
// touch go into the states before it, those whose facts may change without it after it.

/** Before the fold: the records the events name and the open ones, put into the persons' states. */
export function linksBeforeFold(
  store: ProjectionStore,
  loaded: LoadedBatch,
  events: readonly DomainEvent[],
  due: DueSubjects,
  now: Date,
  config: ProjectionConfig,
): Promise<Map<string, LoadedLinks>> {
  const persons = new Set([...loaded.withEvents.person, ...due.persons]);
  return loadNamedLinks(store, loaded.states.person, persons, events, now, config);
}

/**
 * After the fold: the records whose facts may have changed all the same (a `forced` person's as
 * its last batch's too), and the stored facts of every record loaded, to compare the new ones
 * with (planCascade).
 */
export async function linksAfterFold(
  store: ProjectionStore,
  loaded: LoadedBatch,
  links: Map<string, LoadedLinks>,
  forced: ReadonlySet<string>,
  now: Date,
  config: ProjectionConfig,
): Promise<Map<string, MemberLinkFact>> {
  await loadLinkHistory(store, loaded.states.person, links, forced, now, config);
  const factIds: string[] = [];
  for (const of of links.values()) {
    for (const id of of.records.keys()) {
      const [personId, kind, role, subjectId] = id.split('|');
      if (role === 'dancer') factIds.push(`${kind}|${subjectId}|dancer|${personId}`);
    }
  }
  const stored = await store.loadFactsById(factIds);
  return new Map(stored.map((f) => [f._id, f]));
}
