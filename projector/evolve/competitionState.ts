import type { CategoryDetails, CompetitionDetails } from '../../services/events/index.ts';
import type { CompetitionRemoval } from './competitionRemoval.ts';
import { initialMeta } from './versioning.ts';
import type { AggregateMeta } from './types.ts';

// What the projector stores per competition (collection competition_states).

/** An entry's naming of a category: it counts while `epoch` is the category's current epoch. */
export interface EntryNaming {
  id: string;
  epoch: number;
}

/** An entry as the fold sees it (stored as its own record: competitionEntryRecord.ts). */
export interface CompetitionEntry {
  categories: EntryNaming[];
}

/**
 * The entries of a category id in its current epoch. A removal bumps the epoch, so every earlier
 * naming stops counting without touching the entries (a re-added category starts from zero). Kept
 * for ids not (or no longer) among the categories too: an entry may name a category before it is
 * added, and counts in it once it is. Stored as a record of its own per id
 * (projector/write/competitionCategoryRecords.ts).
 */
export interface CategoryStarts {
  n: number;
  epoch: number;
  /** How many categories have the id (a change may give a category the id of another): each counts its starts. */
  k: number;
}

/** A category and its place in the order categories were added (`seq`, kept through changes). */
export interface PlacedCategory {
  seq: number;
  category: CategoryDetails;
}

export interface CompetitionState extends AggregateMeta {
  /** none: no competition.drafted yet. */
  lifecycle: 'none' | 'draft' | 'published' | 'deleted';
  /** Set by the first publication; a slug change is ignored from then on. */
  slugFrozen: boolean;
  details: CompetitionDetails | null;
  /** Plain text of details.descriptionFormatted (computed when it changes). */
  description: string | null;
  status: 'open' | 'completed';
  /** The `seq` the next new category gets (the order categories were added in). */
  categorySeq: number;
  /** How many entries there are, kept by delta. */
  entriesCount: number;
  /** Entries naming each existing category (sum of `n` over the categories), kept by delta. */
  startsCount: number;
  /**
   * The starts this fold may read, by category id: never stored in competition_states. Each id's
   * are a record of their own (competition_category_starts); the writer puts here those a batch's
   * events and their entries name (all of them where it writes the whole read document), so an
   * entry event costs its own ids, not the competition's categories. Missing: `{ n: 0, epoch: 0, k: 0 }`.
   */
  starts: Record<string, CategoryStarts>;
  /**
   * The categories this fold may read, by id, in the order added (usually one; none: missing):
   * records of their own too (competition_categories), loaded for category events and where the
   * whole read document is written.
   */
  categories: Record<string, PlacedCategory[]>;
  /**
   * The entries this fold may read, by entry id: never stored in competition_states. Each entry is
   * a record of its own (competition_entries); the writer puts here those a batch's events name,
   * so the cost of an event is the event's, not the competition's. An id missing is no entry.
   */
  entries: Record<string, CompetitionEntry>;
  /** occurredAt of competition.drafted. */
  createdAt: string | null;
  /** Last event instant that changed what the API returns (evaluated on that event's day). */
  changedAt: string | null;
  /**
   * When and why the competition last left public view, while it stays out of it (null while
   * public or never public; see nextRemoval). States stored before this field existed lack it
   * (read as null): a rebuild fills it for competitions removed before.
   */
  removal: CompetitionRemoval | null;
}

/** What competition_states holds of a competition: everything but its entries and categories. */
export type StoredCompetitionState = Omit<CompetitionState, 'entries' | 'starts' | 'categories'>;

/** A competition with all its categories, as its whole read document is built from. */
export type CompetitionWithCategories = Omit<CompetitionState, 'entries'>;

export function initialCompetitionState(id: string): CompetitionState {
  return {
    ...initialMeta(id),
    lifecycle: 'none',
    slugFrozen: false,
    details: null,
    description: null,
    status: 'open',
    categorySeq: 0,
    entriesCount: 0,
    startsCount: 0,
    starts: {},
    categories: {},
    entries: {},
    createdAt: null,
    changedAt: null,
    removal: null,
  };
}
