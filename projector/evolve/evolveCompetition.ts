import type { CompetitionDetails, DomainEvent, EventOfType } from '../../services/events/index.ts';
import { canonicalInstant } from '../../services/readModel/index.ts';
import { addCategory, categoryAddChangesView, categoryChangeChangesView, changeCategory, removeCategory } from './competitionCategories.ts';
import { competitionPublicView } from './competitionDocument.ts';
import { entryChangesView, isEntryEvent, putEntry, withdrawEntry } from './competitionEntries.ts';
import { nextRemoval } from './competitionRemoval.ts';
import type { CompetitionState } from './competitionState.ts';
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
  const lifecycle = state.lifecycle;
  // Whether the event changes the public view is decided from what the event touches (an entry,
  // a category, the details), never by comparing the whole view, which grows with the categories.
  // A details change's effect is known only once the (slug-frozen) change is merged: the details'
  // part of the view is compared before and after.
  const detailsBefore = lifecycle !== 'deleted' && event.type === 'competition.details_changed' ? detailsViewOf(state) : null;
  const changes = lifecycle !== 'deleted' && detailsBefore === null && changesView(state, event);
  const applied = lifecycle !== 'deleted' && apply(state, event, at);
  // `?? null`: a state stored before removals were kept has no `removal` field.
  if (applied) state.removal = nextRemoval(state.removal ?? null, lifecycle, state.lifecycle, at);
  const outcome = applied ? version : 'ignored';
  if (applied && (detailsBefore === null ? changes : detailsViewOf(state) !== detailsBefore)) state.changedAt = at;
  recordEvent(state, event, at, outcome);
  return outcome;
}

/** Whether the event, if applied, changes the public view (details changes aside). */
function changesView(state: CompetitionState, event: CompetitionEvent): boolean {
  if (isEntryEvent(event)) return entryChangesView(state, event);
  switch (event.type) {
    case 'competition.category_added':
      return categoryAddChangesView(state, event.data.category);
    case 'competition.category_changed':
      return categoryChangeChangesView(state, event);
    case 'competition.published':
      return state.lifecycle !== 'published';
    case 'competition.unpublished':
    case 'competition.deleted':
      return state.lifecycle === 'published';
    case 'competition.completed':
      return state.status !== 'completed';
    default:
      return true;
  }
}

/** The public view but its categories (which a details change cannot touch), serialized. */
const detailsViewOf = (state: CompetitionState): string => JSON.stringify(competitionPublicView({ ...state, categories: {} }));

function apply(state: CompetitionState, event: CompetitionEvent, at: string): boolean {
  if (event.type !== 'competition.drafted' && state.details === null) return false;
  switch (event.type) {
    case 'competition.drafted':
      return draft(state, event, at);
    case 'competition.published':
      state.lifecycle = 'published';
      state.slugFrozen = true;
      return true;
    case 'competition.details_changed':
      changeDetails(state, event);
      return true;
    case 'competition.completed':
      state.status = 'completed';
      return true;
    case 'competition.unpublished':
      state.lifecycle = 'draft';
      return true;
    case 'competition.deleted':
      state.lifecycle = 'deleted';
      return true;
    case 'competition.category_added':
      addCategory(state, event.data.category);
      return true;
    case 'competition.category_changed':
      return changeCategory(state, event);
    case 'competition.category_removed':
      return removeCategory(state, event.data.categoryId);
    case 'competition.entry_submitted':
    case 'competition.entry_changed':
      putEntry(state, event.data.entryId, event.data.categoryIds);
      return true;
    case 'competition.entry_withdrawn':
      return withdrawEntry(state, event.data.entryId);
  }
}

/** Only the first draft counts: a competition is drafted once. */
function draft(state: CompetitionState, event: EventOfType<'competition.drafted'>, at: string): boolean {
  if (state.lifecycle !== 'none') return false;
  state.lifecycle = 'draft';
  state.details = structuredClone(event.data);
  state.description = markdownToPlainText(event.data.descriptionFormatted);
  state.createdAt = at;
  state.changedAt = at;
  return true;
}

/** Once published, the slug stays what it was: a change of it is dropped. */
function changeDetails(state: CompetitionState, event: EventOfType<'competition.details_changed'>): void {
  const changes: Partial<CompetitionDetails> = structuredClone(event.data);
  if (state.slugFrozen) delete changes.slug;
  state.details = { ...(state.details as CompetitionDetails), ...changes };
  if (changes.descriptionFormatted !== undefined) state.description = markdownToPlainText(changes.descriptionFormatted);
}
