import type { CompetitionDetails, DomainEvent } from '../../services/events/index.ts';
import { calendarDay } from '../../services/calendar/index.ts';
import { canonicalInstant } from '../../services/readModel/index.ts';
import { competitionPublicView } from './competitionDocument.ts';
import type { CompetitionState } from './competitionState.ts';
import { markdownToPlainText } from './markdownText.ts';
import type { EvolveResult, ProjectionConfig } from './types.ts';
import { classifyVersion, recordEvent } from './versioning.ts';

export type CompetitionEvent = Extract<DomainEvent, { type: `competition.${string}` }>;

/**
 * Applies one competition event. `changedAt` moves to the event's instant when the public view
 * (evaluated on the event's calendar day, counts included) differs before and after it.
 */
export function evolveCompetition(state: CompetitionState, event: CompetitionEvent, config: ProjectionConfig): EvolveResult<CompetitionState> {
  const version = classifyVersion(state, event);
  if (version === 'duplicate') return { state, outcome: 'duplicate' };
  const at = canonicalInstant(event.occurredAt);
  const today = calendarDay(new Date(at), config.zone);
  const next = structuredClone(state);
  const applied = state.lifecycle !== 'deleted' && apply(next, event, at);
  const outcome = applied ? version : 'ignored';
  if (applied && JSON.stringify(competitionPublicView(state, today)) !== JSON.stringify(competitionPublicView(next, today))) {
    next.changedAt = at;
  }
  recordEvent(next, { ...event, occurredAt: at }, outcome);
  return { state: next, outcome };
}

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
      const entry = state.entries.find((e) => e.entryId === event.data.entryId);
      if (entry) entry.categoryIds = categoryIds;
      else state.entries.push({ entryId: event.data.entryId, categoryIds });
      return true;
    }
    case 'competition.entry_withdrawn': {
      const before = state.entries.length;
      state.entries = state.entries.filter((e) => e.entryId !== event.data.entryId);
      return state.entries.length < before;
    }
  }
}
