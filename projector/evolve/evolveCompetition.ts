import type { CategoryDetails, CompetitionDetails, DomainEvent } from '../../services/events/index.ts';
import { canonicalInstant } from '../../services/readModel/index.ts';
import { competitionPublicView } from './competitionDocument.ts';
import { nextRemoval } from './competitionRemoval.ts';
import type { CompetitionEntry, CompetitionState } from './competitionState.ts';
import { markdownToPlainText } from './markdownText.ts';
import type { EvolveResult, Outcome, ProjectionConfig } from './types.ts';
import { classifyVersion, recordEvent } from './versioning.ts';

export type CompetitionEvent = Extract<DomainEvent, { type: `competition.${string}` }>;

/**
 * Applies one competition event. `changedAt` moves to the event's instant when the public view
 * (evaluated on the event's calendar day, counts included) differs before and after it.
 */
export function evolveCompetition(
  state: CompetitionState,
  event: CompetitionEvent,
  config: ProjectionConfig,
): EvolveResult<CompetitionState> {
  if (classifyVersion(state, event) === 'duplicate') return { state, outcome: 'duplicate' };
  const next = structuredClone(state);
  return { state: next, outcome: evolveCompetitionInPlace(next, event, config) };
}

/**
 * evolveCompetition on a state the caller owns (the writer's batch): mutates it instead of
 * copying it per event, which made long competition histories quadratic.
 */
// `_config`: every aggregate's evolve takes the projection config; a competition's fold needs
// no calendar since its public view no longer holds the day-dependent registration.state.
export function evolveCompetitionInPlace(state: CompetitionState, event: CompetitionEvent, _config: ProjectionConfig): Outcome {
  const version = classifyVersion(state, event);
  if (version === 'duplicate') return 'duplicate';
  const at = canonicalInstant(event.occurredAt);
  // Entries and added categories are most of a competition's history; their effect on the
  // public view is computed directly instead of comparing the whole view (which grows with the
  // categories) before and after.
  const directChange = isEntryEvent(event)
    ? entryChangesView(state, event)
    : event.type === 'competition.category_added'
      ? categoryAddChangesView(state, event.data.category)
      : null;
  const before = directChange !== null || state.lifecycle === 'deleted' ? null : JSON.stringify(competitionPublicView(state));
  const lifecycle = state.lifecycle;
  const applied = state.lifecycle !== 'deleted' && apply(state, event, at);
  // `?? null`: a state stored before removals were kept has no `removal` field.
  if (applied) state.removal = nextRemoval(state.removal ?? null, lifecycle, state.lifecycle, at);
  const outcome = applied ? version : 'ignored';
  if (applied && (directChange ?? before !== JSON.stringify(competitionPublicView(state)))) state.changedAt = at;
  recordEvent(state, event, at, outcome);
  return outcome;
}

type EntryEvent = Extract<
  CompetitionEvent,
  { type: 'competition.entry_submitted' | 'competition.entry_changed' | 'competition.entry_withdrawn' }
>;

const isEntryEvent = (event: CompetitionEvent): event is EntryEvent =>
  event.type === 'competition.entry_submitted' ||
  event.type === 'competition.entry_changed' ||
  event.type === 'competition.entry_withdrawn';

/**
 * Whether applying the entry event changes the counts the API shows: entriesCount moves when an
 * entry appears or goes; startsCount only counts categories that exist, so a changed entry
 * changes the view when its set of existing categories changes.
 */
function entryChangesView(state: CompetitionState, event: EntryEvent): boolean {
  const entry = entriesById(state).get(event.data.entryId);
  if (event.type === 'competition.entry_withdrawn') return entry !== undefined;
  if (!entry) return true;
  const existing = new Set(state.categories.map((c) => c.id));
  const before = new Set(entry.categoryIds.filter((id) => existing.has(id)));
  const after = new Set(event.data.categoryIds.filter((id) => existing.has(id)));
  return before.size !== after.size || [...before].some((id) => !after.has(id));
}

/** Adding a category changes the view unless the same category is already there as it is. */
function categoryAddChangesView(state: CompetitionState, category: CategoryDetails): boolean {
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

function apply(state: CompetitionState, event: CompetitionEvent, at: string): boolean {
  if (event.type !== 'competition.drafted' && state.details === null) return false;
  switch (event.type) {
    case 'competition.drafted':
      if (state.lifecycle !== 'none') return false;
      state.lifecycle = 'draft';
      state.details = structuredClone(event.data);
      state.description = markdownToPlainText(event.data.descriptionFormatted);
      state.createdAt = at;
      state.changedAt = at;
      return true;
    case 'competition.published':
      state.lifecycle = 'published';
      state.slugFrozen = true;
      return true;
    case 'competition.details_changed': {
      const changes: Partial<CompetitionDetails> = structuredClone(event.data);
      if (state.slugFrozen) delete changes.slug;
      state.details = { ...(state.details as CompetitionDetails), ...changes };
      if (changes.descriptionFormatted !== undefined) state.description = markdownToPlainText(changes.descriptionFormatted);
      return true;
    }
    case 'competition.completed':
      state.status = 'completed';
      return true;
    case 'competition.unpublished':
      state.lifecycle = 'draft';
      return true;
    case 'competition.deleted':
      state.lifecycle = 'deleted';
      return true;
    case 'competition.category_added': {
      const category = structuredClone(event.data.category);
      const index = state.categories.findIndex((c) => c.id === category.id);
      if (index >= 0) state.categories[index] = category;
      else state.categories.push(category);
      return true;
    }
    case 'competition.category_changed': {
      const category = state.categories.find((c) => c.id === event.data.categoryId);
      if (!category) return false;
      Object.assign(category, structuredClone(event.data.changes));
      return true;
    }
    case 'competition.category_removed': {
      const before = state.categories.length;
      state.categories = state.categories.filter((c) => c.id !== event.data.categoryId);
      if (state.categories.length === before) return false;
      for (const entry of state.entries) entry.categoryIds = entry.categoryIds.filter((id) => id !== event.data.categoryId);
      return true;
    }
    case 'competition.entry_submitted':
    case 'competition.entry_changed': {
      const categoryIds = [...new Set(event.data.categoryIds)];
      const byId = entriesById(state);
      const entry = byId.get(event.data.entryId);
      if (entry) {
        entry.categoryIds = categoryIds;
      } else {
        const added = { entryId: event.data.entryId, categoryIds };
        state.entries.push(added);
        byId.set(added.entryId, added);
      }
      return true;
    }
    case 'competition.entry_withdrawn': {
      const byId = entriesById(state);
      const entry = byId.get(event.data.entryId);
      if (!entry) return false;
      state.entries.splice(state.entries.indexOf(entry), 1);
      byId.delete(entry.entryId);
      return true;
    }
  }
}

/**
 * The state's entries by id, built once per state object and kept in step by apply: entries are
 * most of a competition's events, and a linear search per event made a batch quadratic in the
 * competition's entry count. Only apply adds or removes entries of a state it was given.
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
