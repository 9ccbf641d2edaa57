import type { CategoryDetails, EventOfType } from '../../services/events/index.ts';
import { categoriesOf, setCategories, setStarts, startsOf } from './competitionEntries.ts';
import type { CompetitionState, PlacedCategory } from './competitionState.ts';

// A competition's categories are held by id (CompetitionState.categories, with their starts in
// CompetitionState.starts), so a category event reads and writes the ids it names, and the total
// of starts moves by delta.

/** The first category added with the id (the one an event naming the id addresses). */
const firstOf = (state: CompetitionState, id: string): PlacedCategory | undefined => categoriesOf(state, id)[0];

/** Adding a category changes the view unless the same category is already there as it is. */
export function categoryAddChangesView(state: CompetitionState, category: CategoryDetails): boolean {
  const existing = firstOf(state, category.id)?.category;
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
 * starts of the entries that named it before it existed into the total.
 */
export function addCategory(state: CompetitionState, added: CategoryDetails): void {
  const category = structuredClone(added);
  const [first, ...rest] = categoriesOf(state, category.id);
  if (first) {
    setCategories(state, category.id, [{ seq: first.seq, category }, ...rest]);
    return;
  }
  setCategories(state, category.id, [{ seq: state.categorySeq++, category }]);
  state.startsCount += startsOf(state, category.id).n;
}

/**
 * False when there is no such category. A change that gives the category another id moves it,
 * in its place, to that id: its starts become the new id's.
 */
export function changeCategory(state: CompetitionState, event: EventOfType<'competition.category_changed'>): boolean {
  const id = event.data.categoryId;
  const [first, ...rest] = categoriesOf(state, id);
  if (!first) return false;
  const category = { ...first.category, ...structuredClone(event.data.changes) };
  if (category.id === id) {
    setCategories(state, id, [{ seq: first.seq, category }, ...rest]);
    return true;
  }
  setCategories(state, id, rest);
  const moved = [...categoriesOf(state, category.id), { seq: first.seq, category }].sort((a, b) => a.seq - b.seq);
  setCategories(state, category.id, moved);
  state.startsCount += startsOf(state, category.id).n - startsOf(state, id).n;
  return true;
}

/**
 * Its starts leave the counts, and every naming of it so far stops counting (its epoch moves on)
 * without touching the entries: a category added again starts from zero. False when there is no
 * such category.
 */
export function removeCategory(state: CompetitionState, categoryId: string): boolean {
  const of = startsOf(state, categoryId);
  if (categoriesOf(state, categoryId).length === 0) return false;
  state.startsCount -= of.n * of.k;
  setCategories(state, categoryId, []);
  setStarts(state, categoryId, { n: 0, epoch: of.epoch + 1, k: 0 });
  return true;
}

/** Whether a category change changes what the API shows of the category. */
export function categoryChangeChangesView(state: CompetitionState, event: EventOfType<'competition.category_changed'>): boolean {
  const existing = firstOf(state, event.data.categoryId)?.category;
  return existing !== undefined && categoryAddChangesView(state, { ...existing, ...event.data.changes });
}
