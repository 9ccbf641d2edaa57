import type { StoredRegistryState } from '../../services/readModel/documents.ts';
import { covers, unionIntervals } from './intervals.ts';
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

export const exceptionEnd = (e: RegistryException): string => (e.endedAt !== null && e.endedAt < e.until ? e.endedAt : e.until);

/** The exception in force at an instant (the latest placed, should two overlap). */
export function exceptionAt(exceptions: readonly RegistryException[], instant: string): RegistryException | null {
  let found: RegistryException | null = null;
  for (const e of exceptions) {
    if (e.from <= instant && instant < exceptionEnd(e) && (found === null || e.from >= found.from)) found = e;
  }
  return found;
}

/** A rule-driven transition due at `instant` happens then, or at the end of an exception in force. */
export function deferPastExceptions(exceptions: readonly RegistryException[], instant: string): string {
  let at = instant;
  for (let e = exceptionAt(exceptions, at); e !== null; e = exceptionAt(exceptions, at)) at = exceptionEnd(e);
  return at;
}

const addMs = (instant: string, ms: number): string => new Date(Date.parse(instant) + ms).toISOString();

type Own = 'NONE' | 'ACTIVE' | 'ARCHIVED';

export function deriveRegistryTimeline(input: TimelineInput): Timeline {
  const { own, exceptions, now, bufferPeriodMs } = input;
  const members = input.members === null ? null : unionIntervals(input.members);
  const covered = (t: string): boolean => members === null || covers(members, t);

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
  const sorted = [...points].filter((p) => p <= now).sort();

  let state: Own = 'NONE';
  let archivedAt: string | null = null;
  let bufferSince: string | null = null;
  const changes: Array<{ at: string; reported: StoredRegistryState | null }> = [];

  const reportedAt = (t: string): StoredRegistryState | null => {
    if (state === 'NONE') return null;
    const e = exceptionAt(exceptions, t);
    if (e) return e.state;
    if (state === 'ARCHIVED') return 'ARCHIVE';
    return covered(t) ? 'REGISTRY' : 'BUFFER';
  };
  const record = (t: string): void => {
    const reported = reportedAt(t);
    const last = changes[changes.length - 1];
    if (!last || last.reported !== reported) changes.push({ at: t, reported });
  };
  const bufferDue = (): string | null =>
    state === 'ACTIVE' && bufferSince !== null ? deferPastExceptions(exceptions, addMs(bufferSince, bufferPeriodMs)) : null;

  let ownIndex = 0;
  for (const p of sorted) {
    const due = bufferDue();
    if (due !== null && due <= p) {
      state = 'ARCHIVED';
      archivedAt = due;
      bufferSince = null;
      record(due);
    }
    for (let t = own[ownIndex]; t !== undefined && t.at <= p; t = own[++ownIndex]) {
      if (t.state === 'REGISTRY' && state !== 'ACTIVE') {
        state = 'ACTIVE';
        archivedAt = null;
        bufferSince = null;
      } else if (t.state === 'ARCHIVE' && state !== 'ARCHIVED') {
        state = 'ARCHIVED';
        archivedAt = t.at;
        bufferSince = null;
      }
    }
    if (state === 'ACTIVE') {
      if (covered(p)) bufferSince = null;
      else bufferSince ??= p;
    }
    record(p);
  }

  const listed: Interval[] = [];
  for (const [i, change] of changes.entries()) {
    if (change.reported !== 'REGISTRY') continue;
    listed.push({ from: change.at, to: changes[i + 1]?.at ?? null });
  }

  const exception = state === 'NONE' ? null : exceptionAt(exceptions, now);
  let reportedArchivedAt: string | null = null;
  if (exception?.state === 'ARCHIVE') reportedArchivedAt = state === 'ARCHIVED' ? archivedAt : exception.from;
  else if (!exception && state === 'ARCHIVED') reportedArchivedAt = archivedAt;

  const dues: string[] = [];
  const due = bufferDue();
  if (due !== null) dues.push(due);
  if (exception) dues.push(exceptionEnd(exception));
  for (const m of members ?? []) {
    if (m.from > now) dues.push(m.from);
    if (m.to !== null && m.to > now) dues.push(m.to);
  }
  const future = dues.filter((d) => d > now).sort();

  return {
    registryState: reportedAt(now),
    archivedAt: reportedArchivedAt,
    ownArchived: state === 'ARCHIVED',
    bufferSince: state === 'ACTIVE' ? bufferSince : null,
    listed,
    nextDueAt: future[0] ?? null,
  };
}
