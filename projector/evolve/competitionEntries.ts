import type { CompetitionEntry, CompetitionState } from './competitionState.ts';
import type { CompetitionEvent } from './evolveCompetition.ts';

export type EntryEvent = Extract<
  CompetitionEvent,
  { type: 'competition.entry_submitted' | 'competition.entry_changed' | 'competition.entry_withdrawn' }
>;

export const isEntryEvent = (event: CompetitionEvent): event is EntryEvent =>
  event.type === 'competition.entry_submitted' ||
  event.type === 'competition.entry_changed' ||
  event.type === 'competition.entry_withdrawn';

/**
 * Whether applying the entry event changes the counts the API shows: entriesCount moves when an
 * entry appears or goes; startsCount only counts categories that exist, so a changed entry
 * changes the view when its set of existing categories changes.
 */
export function entryChangesView(state: CompetitionState, event: EntryEvent): boolean {
  const entry = entriesById(state).get(event.data.entryId);
  if (event.type === 'competition.entry_withdrawn') return entry !== undefined;
  if (!entry) return true;
  const existing = new Set(state.categories.map((c) => c.id));
  const before = new Set(entry.categoryIds.filter((id) => existing.has(id)));
  const after = new Set(event.data.categoryIds.filter((id) => existing.has(id)));
  return before.size !== after.size || [...before].some((id) => !after.has(id));
}

/** A submitted or changed entry: its categories (each once) replace the entry's, or it is added. */
export function putEntry(state: CompetitionState, entryId: string, categoryIds: readonly string[]): void {
  const distinct = [...new Set(categoryIds)];
  const byId = entriesById(state);
  const entry = byId.get(entryId);
  if (entry) {
    entry.categoryIds = distinct;
  } else {
    const added = { entryId, categoryIds: distinct };
    state.entries.push(added);
    byId.set(added.entryId, added);
  }
}

/** False when there is no such entry. */
export function withdrawEntry(state: CompetitionState, entryId: string): boolean {
  const byId = entriesById(state);
  const entry = byId.get(entryId);
  if (!entry) return false;
  state.entries.splice(state.entries.indexOf(entry), 1);
  byId.delete(entry.entryId);
  return true;
}

/**
 * The state's entries by id, built once per state object and kept in step by putEntry and
 * withdrawEntry: entries are most of a competition's events, and a linear search per event made
 * a batch quadratic in the competition's entry count. Only they add or remove entries of a state
 * they were given.
 */
const entryIndexes = new WeakMap<CompetitionState, Map<string, CompetitionEntry>>();
function entriesById(state: CompetitionState): Map<string, CompetitionEntry> {
  let index = entryIndexes.get(state);
  if (!index || index.size !== state.entries.length) {
    index = new Map(state.entries.map((e) => [e.entryId, e]));
    entryIndexes.set(state, index);
  }
  return index;
}
