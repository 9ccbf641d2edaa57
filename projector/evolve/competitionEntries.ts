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

const isCategory = (state: CompetitionState): ((id: string) => boolean) => {
  const ids = new Set(state.categories.map((c) => c.id));
  return (id) => ids.has(id);
};

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
  const exists = isCategory(state);
  for (const { id } of categories) addStarts(state, id, 1, exists(id));
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
  const exists = isCategory(state);
  for (const naming of entry.categories) if (counts(state, naming)) addStarts(state, naming.id, -1, exists(naming.id));
}

function addStarts(state: CompetitionState, categoryId: string, delta: number, exists: boolean): void {
  const { n, epoch } = startsOf(state, categoryId);
  setStarts(state, categoryId, { n: n + delta, epoch });
  if (exists) state.startsCount += delta;
}

/** Keeps only counters that say something: an id never named in its first epoch needs none. */
export function setStarts(state: CompetitionState, categoryId: string, starts: CategoryStarts): void {
  if (starts.n === 0 && starts.epoch === 0) delete state.starts[categoryId];
  else state.starts[categoryId] = starts;
}
