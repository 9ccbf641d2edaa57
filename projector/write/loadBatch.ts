import type { DomainEvent } from '../../services/events/index.ts';
import { classifyVersion } from '../evolve/versioning.ts';
import type { CompetitionState, MemberLinkFact } from '../evolve/index.ts';
import {
  categoryRecordId,
  namedCategoryIds,
  resolveCategories,
  type CategoryRecordKind,
  type LoadedCategories,
} from './competitionCategoryRecords.ts';
import { entryRecordIds, resolveEntries, type LoadedEntries } from './competitionEntryRecords.ts';
import { kindOf } from './foldEvents.ts';
import type { DueSubjects } from './planCascade.ts';
import type { ProjectionStore, StateKind, States } from './projectionStore.ts';

export type WithEvents = { [K in StateKind]: Set<string> };

/** What a batch starts from: the stored states it folds or sweeps, and the stored facts of its persons. */
export interface LoadedBatch {
  states: States;
  /** Aggregates with events in the batch: only their states are written. */
  withEvents: WithEvents;
  /** The stored dancer link facts of the batch's persons, by fact id (empty unless asked for). */
  storedFacts: Map<string, MemberLinkFact>;
  /** The entries the events name, by competition, as loaded (already put into the competitions' states). */
  entries: Map<string, LoadedEntries>;
  /** The category ids the fold may read, by competition, as loaded (already put into the competitions' states). */
  categories: Map<string, LoadedCategories>;
}

export const noneDue: DueSubjects = { competitions: [], persons: [], coaches: [], clubs: [] };

/**
 * Loads the states of the aggregates with events and of the competitions and persons that fell
 * due, the entries the events name (put into their competitions' states), and, when `compareFacts`, their persons' stored dancer link facts (which planCascade
 * compares with the new ones to re-derive only the subjects whose facts change).
 */
export async function loadBatch(
  store: ProjectionStore,
  events: readonly DomainEvent[],
  due: DueSubjects,
  compareFacts: boolean,
  /** False for a replay that writes states alone: no competition needs all its categories for its document. */
  documents = true,
): Promise<LoadedBatch> {
  const withEvents: WithEvents = { competition: new Set(), person: new Set(), club: new Set() };
  for (const event of events) withEvents[kindOf(event)].add(event.aggregateId);
  const personIds = [...new Set([...withEvents.person, ...due.persons])];
  const named = entryRecordIds(events);
  const [competition, person, club, storedFacts, entryRecords] = await Promise.all([
    store.loadStates('competition', [...new Set([...withEvents.competition, ...due.competitions])]),
    store.loadStates('person', personIds),
    store.loadStates('club', [...withEvents.club]),
    compareFacts ? store.loadMemberFacts('dancer', personIds) : [],
    store.loadCompetitionEntries(named),
  ]);
  const entries = resolveEntries(competition, entryRecords, named);
  const categories = await loadCategories(store, events, due, competition, entries, documents);
  return {
    states: { competition, person, club },
    withEvents,
    storedFacts: new Map(storedFacts.map((f) => [f._id, f])),
    entries,
    categories,
  };
}

/**
 * The category ids each competition's fold reads (after its entries, whose former categories
 * count), or all of them where the batch writes the competition's whole read document
 * (wholeDocuments); put into the loaded states.
 */
async function loadCategories(
  store: ProjectionStore,
  events: readonly DomainEvent[],
  due: DueSubjects,
  competitions: Map<string, CompetitionState>,
  entries: ReadonlyMap<string, LoadedEntries>,
  documents: boolean,
): Promise<Map<string, LoadedCategories>> {
  const named = namedCategoryIds(events, entries);
  const whole = documents ? wholeDocuments(events, due, competitions) : new Set<string>();
  const ids = (kind: CategoryRecordKind): string[] =>
    [...named].flatMap(([competitionId, of]) =>
      whole.has(competitionId) ? [] : [...of[kind]].map((id) => categoryRecordId(competitionId, id)),
    );
  const [starts, categories, all] = await Promise.all([
    store.loadCategoryRecords('starts', ids('starts')),
    store.loadCategoryRecords('categories', ids('categories')),
    store.loadAllCategoryRecords([...whole]),
  ]);
  return resolveCategories(
    competitions,
    { starts: [...starts, ...all.starts], categories: [...categories, ...all.categories] },
    named,
    whole,
  );
}

/**
 * The competitions whose whole read document the batch writes, so it loads all their categories:
 * those the clock swept, those with an event other than an entry's, with no stored state yet, or
 * with an event the stored state has (a replay after a crash, which may have left the document
 * behind its state). The others had entry events alone, which change counts only: their
 * documents are patched (competitionCountsPatch).
 */
export function wholeDocuments(
  events: readonly DomainEvent[],
  due: DueSubjects,
  competitions: ReadonlyMap<string, CompetitionState>,
): Set<string> {
  const whole = new Set(due.competitions);
  for (const event of events) {
    if (!event.type.startsWith('competition.')) continue;
    const state = competitions.get(event.aggregateId);
    const entryEvent =
      event.type === 'competition.entry_submitted' ||
      event.type === 'competition.entry_changed' ||
      event.type === 'competition.entry_withdrawn';
    if (!state || !entryEvent || classifyVersion(state, event) === 'duplicate') whole.add(event.aggregateId);
  }
  return whole;
}
