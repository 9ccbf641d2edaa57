import type { CategoryDetails, EventOfType } from '../../services/events/index.ts';
import { recountStarts, setStarts, startsOf } from './competitionEntries.ts';
import type { CompetitionState } from './competitionState.ts';

/** Adding a category changes the view unless the same category is already there as it is. */
export function categoryAddChangesView(state: CompetitionState, category: CategoryDetails): boolean {
  const existing = state.categories.find((c) => c.id === category.id);
  if (existing === undefined) return true;
  return CATEGORY_FIELDS.some((field) => JSON.stringify(existing[field]) !== JSON.stringify(category[field]));
}

const CATEGORY_FIELDS = [
  'name',
  'entryType',
  'style',
  'ageGroup',
  'birthYearRange',
  'participantDivision',
  'level',
  'dances',
  'displayOrder',
] as const satisfies readonly (keyof CategoryDetails)[];

/**
 * A category added again under its id replaces the one there, in its place. A new one brings the
 * starts of the entries that named it before it existed into the total (recounted over the
 * categories, as after every category event).
 */
export function addCategory(state: CompetitionState, added: CategoryDetails): void {
  const category = structuredClone(added);
  const index = state.categories.findIndex((c) => c.id === category.id);
  if (index >= 0) state.categories[index] = category;
  else state.categories.push(category);
  recountStarts(state);
}

/** False when there is no such category. */
export function changeCategory(state: CompetitionState, event: EventOfType<'competition.category_changed'>): boolean {
  const index = state.categories.findIndex((c) => c.id === event.data.categoryId);
  if (index < 0) return false;
  // A new array: a change may give the category another id (see categoryCount).
  state.categories = state.categories.map((c, i) => (i === index ? { ...c, ...structuredClone(event.data.changes) } : c));
  recountStarts(state);
  return true;
}

/**
 * Its starts leave the counts, and every naming of it so far stops counting (its epoch moves on)
 * without touching the entries: a category added again starts from zero. False when there is no
 * such category.
 */
export function removeCategory(state: CompetitionState, categoryId: string): boolean {
  const before = state.categories.length;
  state.categories = state.categories.filter((c) => c.id !== categoryId);
  if (state.categories.length === before) return false;
  setStarts(state, categoryId, { n: 0, epoch: startsOf(state, categoryId).epoch + 1 });
  recountStarts(state);
  return true;
}

/** Whether a category change changes what the API shows of the category. */
export function categoryChangeChangesView(state: CompetitionState, event: EventOfType<'competition.category_changed'>): boolean {
  const existing = state.categories.find((c) => c.id === event.data.categoryId);
  return existing !== undefined && categoryAddChangesView(state, { ...existing, ...event.data.changes });
}
