import type { StoredRegistryState } from '../../services/readModel/documents.ts';
import { covers } from './intervals.ts';
import { deferPastExceptions, exceptionAt } from './registryExceptions.ts';
import type { Interval, OwnTransition, RegistryException } from './types.ts';

type Own = 'NONE' | 'ACTIVE' | 'ARCHIVED';

const addMs = (instant: string, ms: number): string => new Date(Date.parse(instant) + ms).toISOString();

/**
 * A record's own state walked forward through the instants at which something may change (see
 * deriveRegistryTimeline): its own transitions, the buffer's archival, and every change of the
 * state it reports (exceptions overlaid) on the way.
 */
export class TimelineWalk {
  state: Own = 'NONE';
  /** When the own state became ARCHIVED, explicitly or by the buffer's end. */
  archivedAt: string | null = null;
  /** When the record entered the buffer (own state ACTIVE without a qualifying member). */
  bufferSince: string | null = null;
  /** Each change of the reported state, oldest first. */
  readonly changes: Array<{ at: string; reported: StoredRegistryState | null }> = [];
  private ownIndex = 0;
  private readonly own: readonly OwnTransition[];
  private readonly exceptions: readonly RegistryException[];
  /** Unioned intervals holding a qualifying member; null when the record needs none. */
  private readonly members: readonly Interval[] | null;
  private readonly bufferPeriodMs: number;

  constructor(
    own: readonly OwnTransition[],
    exceptions: readonly RegistryException[],
    members: readonly Interval[] | null,
    bufferPeriodMs: number,
  ) {
    this.own = own;
    this.exceptions = exceptions;
    this.members = members;
    this.bufferPeriodMs = bufferPeriodMs;
  }

  /** Applies everything that happens up to `point` (which no earlier call passed), then records the reported state at it. */
  advanceTo(point: string): void {
    const due = this.bufferDue();
    if (due !== null && due <= point) {
      this.state = 'ARCHIVED';
      this.archivedAt = due;
      this.bufferSince = null;
      this.record(due);
    }
    this.applyOwnUpTo(point);
    if (this.state === 'ACTIVE') {
      if (this.covered(point)) this.bufferSince = null;
      else this.bufferSince ??= point;
    }
    this.record(point);
  }

  /** The state reported at `t`: an exception in force overlays the own state. */
  reportedAt(t: string): StoredRegistryState | null {
    if (this.state === 'NONE') return null;
    const e = exceptionAt(this.exceptions, t);
    if (e) return e.state;
    if (this.state === 'ARCHIVED') return 'ARCHIVE';
    return this.covered(t) ? 'REGISTRY' : 'BUFFER';
  }

  /** When the buffer archives the record (rules 4, 5), past any exception in force; null when it is not in the buffer. */
  bufferDue(): string | null {
    return this.state === 'ACTIVE' && this.bufferSince !== null
      ? deferPastExceptions(this.exceptions, addMs(this.bufferSince, this.bufferPeriodMs))
      : null;
  }

  private applyOwnUpTo(point: string): void {
    const own = this.own;
    for (let t = own[this.ownIndex]; t !== undefined && t.at <= point; t = own[++this.ownIndex]) {
      if (t.state === 'REGISTRY' && this.state !== 'ACTIVE') {
        this.state = 'ACTIVE';
        this.archivedAt = null;
        this.bufferSince = null;
      } else if (t.state === 'ARCHIVE' && this.state !== 'ARCHIVED') {
        this.state = 'ARCHIVED';
        this.archivedAt = t.at;
        this.bufferSince = null;
      }
    }
  }

  private covered(t: string): boolean {
    return this.members === null || covers(this.members, t);
  }

  private record(t: string): void {
    const reported = this.reportedAt(t);
    const last = this.changes[this.changes.length - 1];
    if (!last || last.reported !== reported) this.changes.push({ at: t, reported });
  }
}
