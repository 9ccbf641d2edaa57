import type { StoredRegistryState } from '../../services/readModel/documents.ts';
import { unionIntervals } from './intervals.ts';
import { exceptionAt, exceptionEnd } from './registryExceptions.ts';
import { TimelineWalk } from './timelineWalk.ts';
import type { Interval, OwnTransition, RegistryException } from './types.ts';

// One timeline walk serves every registry record. Dancers and judges pass `members: null`
// (their own transitions, rule 1 included, are already in `own`); coaches and clubs pass the
// intervals in which they held a qualifying member, and the walk adds the buffer (rules 4, 5)
// and its archival. Exceptions (rule 6) overlay the reported state and defer rule-driven
// archival to their end. Everything is a function of the inputs and `now`, so a replay or a
// late fact gives the same answer as a live run.

export interface TimelineInput {
  /** Own transitions, oldest first: REGISTRY = grant/registration/reinstatement, ARCHIVE = explicit archival. */
  own: readonly OwnTransition[];
  exceptions: readonly RegistryException[];
  /** Intervals holding a qualifying member; null when the record needs none. */
  members: readonly Interval[] | null;
  bufferPeriodMs: number;
  now: string;
}

export interface Timeline {
  /** Reported state at `now`; null before the record exists. */
  registryState: StoredRegistryState | null;
  /** Reported archivedAt at `now` (rule 6: null while an exception holds it out of ARCHIVE). */
  archivedAt: string | null;
  /** Whether the record's own state (no exception) is ARCHIVE at `now`. */
  ownArchived: boolean;
  /** Instant the record entered the buffer, when it is in the buffer at `now` (own state). */
  bufferSince: string | null;
  /** Reported-REGISTRY intervals up to `now` (the last one open when listed at `now`). */
  listed: Interval[];
  /** Next instant after `now` at which the reported state changes without a new event. */
  nextDueAt: string | null;
}

export function deriveRegistryTimeline(input: TimelineInput): Timeline {
  const { exceptions, now } = input;
  const members = input.members === null ? null : unionIntervals(input.members);
  const walk = new TimelineWalk(input.own, exceptions, members, input.bufferPeriodMs);
  for (const point of timelinePoints(input, members)) walk.advanceTo(point);
  const exception = walk.state === 'NONE' ? null : exceptionAt(exceptions, now);
  return {
    registryState: walk.reportedAt(now),
    archivedAt: reportedArchivedAt(walk, exception),
    ownArchived: walk.state === 'ARCHIVED',
    bufferSince: walk.state === 'ACTIVE' ? walk.bufferSince : null,
    listed: listedIntervals(walk.changes),
    nextDueAt: nextDueAfter(walk, exception, members, now),
  };
}

/** Every instant up to `now` at which the reported state may change, in order, `now` included. */
function timelinePoints(input: TimelineInput, members: readonly Interval[] | null): string[] {
  const { own, exceptions, now } = input;
  const points = new Set<string>([now]);
  for (const t of own) points.add(t.at);
  for (const e of exceptions) {
    points.add(e.from);
    points.add(exceptionEnd(e));
  }
  for (const m of members ?? []) {
    points.add(m.from);
    if (m.to !== null) points.add(m.to);
  }
  return [...points].filter((p) => p <= now).sort();
}

/** The REGISTRY stretches among the reported state's changes (the last one open). */
function listedIntervals(changes: TimelineWalk['changes']): Interval[] {
  const listed: Interval[] = [];
  for (const [i, change] of changes.entries()) {
    if (change.reported !== 'REGISTRY') continue;
    listed.push({ from: change.at, to: changes[i + 1]?.at ?? null });
  }
  return listed;
}

/**
 * archivedAt as reported (rule 6): the own archival's instant, unless an exception holds the
 * record in another state; under an ARCHIVE exception over a record not archived of its own,
 * the exception's start.
 */
function reportedArchivedAt(walk: TimelineWalk, exception: RegistryException | null): string | null {
  if (exception?.state === 'ARCHIVE') return walk.state === 'ARCHIVED' ? walk.archivedAt : exception.from;
  if (!exception && walk.state === 'ARCHIVED') return walk.archivedAt;
  return null;
}

/** The first instant after `now` at which the reported state changes without a new event. */
function nextDueAfter(
  walk: TimelineWalk,
  exception: RegistryException | null,
  members: readonly Interval[] | null,
  now: string,
): string | null {
  const dues: string[] = [];
  const due = walk.bufferDue();
  if (due !== null) dues.push(due);
  if (exception) dues.push(exceptionEnd(exception));
  for (const m of members ?? []) {
    if (m.from > now) dues.push(m.from);
    if (m.to !== null && m.to > now) dues.push(m.to);
  }
  return dues.filter((d) => d > now).sort()[0] ?? null;
}
