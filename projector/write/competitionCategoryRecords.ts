import type { DomainEvent } from '../../services/events/index.ts';
import type { CategoryStarts, CompetitionState, PlacedCategory } from '../evolve/index.ts';
import { StaleEntryRecord, type LoadedEntries } from './competitionEntryRecords.ts';

/**
 * One category id of one competition, `_id` `<competitionId>|<categoryId>`, in one of two
 * collections: its starts (competition_category_starts, written by the entries naming it) and its
 * categories (competition_categories, written by category events), so that an event loads and
 * writes the ids it names, whatever the number of the competition's categories, and an entry
 * rewrites a counter, not a category. Written before the state, with the replay bookkeeping of an
 * entry record (competitionEntryRecords.ts): `value` at the competition's version `v` after the
 * batch that wrote it, `prev` as that batch found it at version `pv`.
 */
export interface CategoryIdRecord<T> {
  /** `<competitionId>|<categoryId>` (recordIds): nothing else names them, as an entry naming ids costs a record each. */
  _id: string;
  v: number;
  value: T | null;
  pv: number;
  prev: T | null;
}

export type CategoryStartsRecord = CategoryIdRecord<CategoryStarts>;
export type CategoryRecord = CategoryIdRecord<PlacedCategory[]>;

/** The category records of a batch, of each kind. */
export interface CategoryRecords {
  starts: CategoryStartsRecord[];
  categories: CategoryRecord[];
}
export type CategoryRecordKind = keyof CategoryRecords;

export const categoryRecordId = (competitionId: string, categoryId: string): string => `${competitionId}|${categoryId}`;

/** The competition and category ids of a record's `_id` (a competition id is a uuid: no `|`). */
export function recordIds(recordId: string): { competitionId: string; categoryId: string } {
  const bar = recordId.indexOf('|');
  return { competitionId: recordId.slice(0, bar), categoryId: recordId.slice(bar + 1) };
}

/** The ids a batch's fold may read, by competition: `starts` of every id named, `categories` of those category events name. */
export interface NamedCategoryIds {
  starts: Set<string>;
  categories: Set<string>;
}

/**
 * The category ids a batch's fold may read, by competition: those its events name and those the
 * entries it loaded name (an entry's former categories leave the counts when it changes).
 */
export function namedCategoryIds(
  events: readonly DomainEvent[],
  entries: ReadonlyMap<string, LoadedEntries>,
): Map<string, NamedCategoryIds> {
  const named = new Map<string, NamedCategoryIds>();
  const add = (competitionId: string, ids: Iterable<string>, categories: boolean): void => {
    let of = named.get(competitionId);
    if (!of) named.set(competitionId, (of = { starts: new Set(), categories: new Set() }));
    for (const id of ids) {
      of.starts.add(id);
      if (categories) of.categories.add(id);
    }
  };
  for (const event of events) {
    switch (event.type) {
      case 'competition.category_added':
        add(event.aggregateId, [event.data.category.id], true);
        break;
      case 'competition.category_changed': {
        const to = event.data.changes.id;
        add(event.aggregateId, to === undefined ? [event.data.categoryId] : [event.data.categoryId, to], true);
        break;
      }
      case 'competition.category_removed':
        add(event.aggregateId, [event.data.categoryId], true);
        break;
      case 'competition.entry_submitted':
      case 'competition.entry_changed':
        add(event.aggregateId, event.data.categoryIds, false);
        break;
      default:
    }
  }
  for (const [competitionId, { entries: loaded }] of entries)
    for (const entry of loaded.values())
      if (entry)
        add(
          competitionId,
          entry.categories.map((naming) => naming.id),
          false,
        );
  return named;
}

/**
 * A competition's category ids as loaded for a batch, at the stored state's version (null: no
 * record); `complete`: every record it has was loaded.
 */
export interface LoadedCategories {
  version: number;
  complete: boolean;
  starts: Map<string, CategoryStarts | null>;
  categories: Map<string, PlacedCategory[] | null>;
}

/**
 * Each competition's category records at the version of its loaded state, put into the state for
 * the fold; returns them as loaded, to compare with after the fold.
 */
export function resolveCategories(
  competitions: Map<string, CompetitionState>,
  records: CategoryRecords,
  named: ReadonlyMap<string, NamedCategoryIds>,
  complete: ReadonlySet<string>,
): Map<string, LoadedCategories> {
  const loaded = new Map<string, LoadedCategories>();
  const of = (competitionId: string): LoadedCategories => {
    let found = loaded.get(competitionId);
    if (!found) {
      const version = competitions.get(competitionId)?.version ?? 0;
      found = { version, complete: complete.has(competitionId), starts: new Map(), categories: new Map() };
      loaded.set(competitionId, found);
    }
    return found;
  };
  for (const [competitionId, ids] of named) {
    for (const id of ids.starts) of(competitionId).starts.set(id, null);
    for (const id of ids.categories) of(competitionId).categories.set(id, null);
  }
  for (const competitionId of complete) of(competitionId);
  const put = <T>(
    record: CategoryIdRecord<T>,
    loadedOf: (at: LoadedCategories) => Map<string, T | null>,
    into: (state: CompetitionState) => Record<string, T>,
  ): void => {
    const { competitionId, categoryId } = recordIds(record._id);
    const at = of(competitionId);
    // No stored state, no categories: a record before the first state is a died batch's (read as its prev, none).
    const state = competitions.get(competitionId);
    const value = state ? valueAt(record, at.version) : null;
    loadedOf(at).set(categoryId, value);
    if (state && value !== null) into(state)[categoryId] = value;
  };
  for (const record of records.starts)
    put(
      record,
      (at) => at.starts,
      (state) => state.starts,
    );
  for (const record of records.categories)
    put(
      record,
      (at) => at.categories,
      (state) => state.categories,
    );
  return loaded;
}

function valueAt<T>(record: CategoryIdRecord<T>, version: number): T | null {
  if (record.v <= version) return record.value;
  if (record.pv <= version) return record.prev;
  throw new StaleEntryRecord(`category ${record._id} was written from version ${record.pv} of its competition, newer than ${version}`);
}

/**
 * The records of the category ids a batch's fold changed, each under the competition's new
 * version. The fold replaces what it changes (setStarts, setCategories), so an id whose value is
 * still the object loaded is unchanged.
 */
export function changedCategoryRecords(
  competitions: ReadonlyMap<string, CompetitionState>,
  loaded: ReadonlyMap<string, LoadedCategories>,
): CategoryRecords {
  const records: CategoryRecords = { starts: [], categories: [] };
  for (const [competitionId, at] of loaded) {
    const state = competitions.get(competitionId);
    if (!state) continue;
    const changed = <T>(values: Record<string, T>, before: ReadonlyMap<string, T | null>): CategoryIdRecord<T>[] =>
      Object.entries(values).flatMap(([categoryId, value]) => {
        const prev = before.get(categoryId) ?? null;
        if (value === prev || JSON.stringify(value) === JSON.stringify(prev)) return [];
        return [{ _id: categoryRecordId(competitionId, categoryId), v: state.version, value, pv: at.version, prev }];
      });
    records.starts.push(...changed(state.starts, at.starts));
    records.categories.push(...changed(state.categories, at.categories));
  }
  return records;
}

/** The ids whose starts the fold changed, by competition (what a counts patch sets). */
export function changedStarts(records: readonly CategoryStartsRecord[]): Map<string, Set<string>> {
  const changed = new Map<string, Set<string>>();
  for (const { _id, value, prev } of records) {
    if ((value?.n ?? 0) === (prev?.n ?? 0)) continue;
    const { competitionId, categoryId } = recordIds(_id);
    const of = changed.get(competitionId) ?? new Set<string>();
    changed.set(competitionId, of.add(categoryId));
  }
  return changed;
}
