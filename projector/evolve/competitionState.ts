import type { CategoryDetails, CompetitionDetails } from '../../services/events/index.ts';
import type { CompetitionRemoval } from './competitionRemoval.ts';
import { initialMeta } from './versioning.ts';
import type { AggregateMeta } from './types.ts';

// What the projector stores per competition (collection competition_states).

export interface CompetitionEntry {
  entryId: string;
  categoryIds: string[];
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
  /** In the order added. */
  categories: CategoryDetails[];
  /** Current entries; a category removal strips its id from them. */
  entries: CompetitionEntry[];
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

export function initialCompetitionState(id: string): CompetitionState {
  return {
    ...initialMeta(id),
    lifecycle: 'none',
    slugFrozen: false,
    details: null,
    description: null,
    status: 'open',
    categories: [],
    entries: [],
    createdAt: null,
    changedAt: null,
    removal: null,
  };
}
