import type { CategoryDetails, EventOfType } from '../../services/events/index.ts';
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

/** A category added again under its id replaces the one there, in its place. */
export function addCategory(state: CompetitionState, added: CategoryDetails): void {
  const category = structuredClone(added);
  const index = state.categories.findIndex((c) => c.id === category.id);
  if (index >= 0) state.categories[index] = category;
  else state.categories.push(category);
}

/** False when there is no such category. */
export function changeCategory(state: CompetitionState, event: EventOfType<'competition.category_changed'>): boolean {
  const category = state.categories.find((c) => c.id === event.data.categoryId);
  if (!category) return false;
  Object.assign(category, structuredClone(event.data.changes));
  return true;
}

/** Its id leaves every entry too; false when there is no such category. */
export function removeCategory(state: CompetitionState, categoryId: string): boolean {
  const before = state.categories.length;
  state.categories = state.categories.filter((c) => c.id !== categoryId);
  if (state.categories.length === before) return false;
  for (const entry of state.entries) entry.categoryIds = entry.categoryIds.filter((id) => id !== categoryId);
  return true;
}
