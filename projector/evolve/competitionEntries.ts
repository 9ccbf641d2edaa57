import type { CategoryStarts, CompetitionEntry, CompetitionState, EntryNaming, PlacedCategory } from './competitionState.ts';
import type { CompetitionEvent } from './evolveCompetition.ts';

export type EntryEvent = Extract<
  CompetitionEvent,
  { type: 'competition.entry_submitted' | 'competition.entry_changed' | 'competition.entry_withdrawn' }
>;

export const isEntryEvent = (event: CompetitionEvent): event is EntryEvent =>
  event.type === 'competition.entry_submitted' ||
  event.type === 'competition.entry_changed' ||
  event.type === 'competition.entry_withdrawn';

const noStarts: CategoryStarts = { n: 0, epoch: 0, k: 0 };
export const startsOf = (state: Pick<CompetitionState, 'starts'>, categoryId: string): CategoryStarts =>
  state.starts[categoryId] ?? noStarts;

/** The categories with the id, in the order added (none: the id was never added, or was removed). */
export const categoriesOf = (state: Pick<CompetitionState, 'categories'>, categoryId: string): PlacedCategory[] =>
  state.categories[categoryId] ?? [];

/** Whether a naming still counts: it was made in the category's current epoch. */
const counts = (state: CompetitionState, naming: EntryNaming): boolean => naming.epoch === startsOf(state, naming.id).epoch;

/** How many categories have the id (a category change may give one the id of another): each counts the id's starts. */
const categoryCount = (state: CompetitionState, id: string): number => startsOf(state, id).k;

/**
 * Whether applying the entry event changes the counts the API shows: entriesCount moves when an
 * entry appears or goes; startsCount only counts categories that exist, so a changed entry
 * changes the view when its set of existing categories changes.
 */
export function entryChangesView(state: CompetitionState, event: EntryEvent): boolean {
  const entry = state.entries[event.data.entryId];
  if (event.type === 'competition.entry_withdrawn') return entry !== undefined;
  if (!entry) return true;
  const exists = (id: string): boolean => categoryCount(state, id) > 0;
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
  for (const { id } of categories) addStarts(state, id, 1);
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
  for (const naming of entry.categories) if (counts(state, naming)) addStarts(state, naming.id, -1);
}

/** Each category with the id counts the entry's start. */
function addStarts(state: CompetitionState, categoryId: string, delta: number): void {
  const of = startsOf(state, categoryId);
  setStarts(state, categoryId, { ...of, n: of.n + delta });
  state.startsCount += delta * of.k;
}

/** Replaces the id's starts (a new object: the writer compares it with the one it loaded). */
export function setStarts(state: CompetitionState, categoryId: string, starts: CategoryStarts): void {
  state.starts[categoryId] = starts;
}

/** Replaces the id's categories (a new array, as setStarts), and their number in its starts. */
export function setCategories(state: CompetitionState, categoryId: string, categories: PlacedCategory[]): void {
  state.categories[categoryId] = categories;
  const of = startsOf(state, categoryId);
  if (of.k !== categories.length) setStarts(state, categoryId, { ...of, k: categories.length });
}
