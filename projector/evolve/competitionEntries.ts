import type { CategoryDetails } from '../../services/events/index.ts';
import type { CategoryStarts, CompetitionEntry, CompetitionState, EntryNaming } from './competitionState.ts';
import type { CompetitionEvent } from './evolveCompetition.ts';

export type EntryEvent = Extract<
  CompetitionEvent,
  { type: 'competition.entry_submitted' | 'competition.entry_changed' | 'competition.entry_withdrawn' }
>;

export const isEntryEvent = (event: CompetitionEvent): event is EntryEvent =>
  event.type === 'competition.entry_submitted' ||
  event.type === 'competition.entry_changed' ||
  event.type === 'competition.entry_withdrawn';

const noStarts: CategoryStarts = { n: 0, epoch: 0 };
export const startsOf = (state: Pick<CompetitionState, 'starts'>, categoryId: string): CategoryStarts =>
  state.starts[categoryId] ?? noStarts;

/** Whether a naming still counts: it was made in the category's current epoch. */
const counts = (state: CompetitionState, naming: EntryNaming): boolean => naming.epoch === startsOf(state, naming.id).epoch;

/**
 * How many of the state's categories have each id (a category change may give one the id of
 * another), built once per categories array instead of once per entry event, which made an entry
 * cost as much as the competition has categories. Every change of the categories makes a new
 * array, but an addition, which pushes one: hence the size check.
 */
const categoryIdCounts = new WeakMap<readonly CategoryDetails[], { length: number; ids: Map<string, number> }>();
const categoryCount = (state: Pick<CompetitionState, 'categories'>): ((id: string) => number) => {
  let known = categoryIdCounts.get(state.categories);
  if (!known || known.length !== state.categories.length) {
    const ids = new Map<string, number>();
    for (const { id } of state.categories) ids.set(id, (ids.get(id) ?? 0) + 1);
    known = { length: state.categories.length, ids };
    categoryIdCounts.set(state.categories, known);
  }
  const { ids } = known;
  return (id) => ids.get(id) ?? 0;
};
const isCategory = (state: CompetitionState): ((id: string) => boolean) => {
  const count = categoryCount(state);
  return (id) => count(id) > 0;
};

/** startsCount recounted over the categories: after a category event (a category's, not an entry's, cost). */
export function recountStarts(state: CompetitionState): void {
  state.startsCount = state.categories.reduce((sum, category) => sum + startsOf(state, category.id).n, 0);
}

/**
 * Whether applying the entry event changes the counts the API shows: entriesCount moves when an
 * entry appears or goes; startsCount only counts categories that exist, so a changed entry
 * changes the view when its set of existing categories changes.
 */
export function entryChangesView(state: CompetitionState, event: EntryEvent): boolean {
  const entry = state.entries[event.data.entryId];
  if (event.type === 'competition.entry_withdrawn') return entry !== undefined;
  if (!entry) return true;
  const exists = isCategory(state);
  const before = new Set(entry.categories.filter((naming) => counts(state, naming) && exists(naming.id)).map((naming) => naming.id));
  const after = new Set(event.data.categoryIds.filter(exists));
  return before.size !== after.size || [...before].some((id) => !after.has(id));
}

/** A submitted or changed entry: its categories (each once) replace the entry's, or it is added. */
export function putEntry(state: CompetitionState, entryId: string, categoryIds: readonly string[]): void {
  const entry = state.entries[entryId];
  if (entry) uncount(state, entry);
  else state.entriesCount += 1;
  const categories = [...new Set(categoryIds)].map((id) => ({ id, epoch: startsOf(state, id).epoch }));
  const count = categoryCount(state);
  for (const { id } of categories) addStarts(state, id, 1, count(id));
  state.entries[entryId] = { categories };
}

/** False when there is no such entry. */
export function withdrawEntry(state: CompetitionState, entryId: string): boolean {
  const entry = state.entries[entryId];
  if (!entry) return false;
  uncount(state, entry);
  state.entriesCount -= 1;
  delete state.entries[entryId];
  return true;
}

/** Takes the entry's namings that still count out of the counters. */
function uncount(state: CompetitionState, entry: CompetitionEntry): void {
  const count = categoryCount(state);
  for (const naming of entry.categories) if (counts(state, naming)) addStarts(state, naming.id, -1, count(naming.id));
}

/** `categories`: how many categories have the id (each counts the entry's start). */
function addStarts(state: CompetitionState, categoryId: string, delta: number, categories: number): void {
  const { n, epoch } = startsOf(state, categoryId);
  setStarts(state, categoryId, { n: n + delta, epoch });
  state.startsCount += delta * categories;
}

/** Keeps only counters that say something: an id never named in its first epoch needs none. */
export function setStarts(state: CompetitionState, categoryId: string, starts: CategoryStarts): void {
  if (starts.n === 0 && starts.epoch === 0) delete state.starts[categoryId];
  else state.starts[categoryId] = starts;
}
