import type { StoredCompetitionRemoval } from '../../services/readModel/documents.ts';
import type { CompetitionState } from './competitionState.ts';

/** The last time a competition left public view (occurredAt of the event) and why, kept while it stays out of it. */
export type CompetitionRemoval = StoredCompetitionRemoval;

type Lifecycle = CompetitionState['lifecycle'];

/**
 * The removal a competition reports after an event moved its lifecycle from `before` to
 * `after` at `at`. Only a change of what anonymous visitors see counts:
 * - leaving public view (published → draft or deleted) records the instant and the reason;
 * - becoming public again clears it, so a republished competition is never reported removed
 *   (clients learn of it through `updatedSince` on the list, where its updatedAt moved);
 * - anything else keeps the removal as it is: deleting a competition that was already
 *   unpublished changes nothing anyone could see, so it stays reported as `unpublished` at the
 *   instant it left view, and a draft that was never public is never reported.
 * The instant is the event's occurredAt, never the projector's clock, so a replay gives the
 * same documents.
 */
export function nextRemoval(
  current: CompetitionRemoval | null,
  before: Lifecycle,
  after: Lifecycle,
  at: string,
): CompetitionRemoval | null {
  if (after === 'published') return null;
  if (before === 'published') return { at, reason: after === 'deleted' ? 'deleted' : 'unpublished' };
  return current;
}
