import type { EventData, EventType } from '../services/events/index.ts';
import type { Queued } from './timeQueue.ts';
import type { SpareTask, World } from './world.ts';

/** An event before its envelope: the type and its data, kept together so they type-check. */
export type EventBody = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

/**
 * A plan of an aggregate: what (`kind`, with one number `ref` such as a role or an entry), and
 * when (`at`, epoch seconds). Plans link into a list sorted by `at`: an aggregate has a handful
 * at a time, and a list costs no array per aggregate (hundreds of thousands are alive at once).
 */
export interface Task<K extends string> extends SpareTask {
  kind: K;
  next: Task<K> | undefined;
}

/** Events of one aggregate stay at least a second apart, so `occurredAt` strictly increases. */
const MIN_GAP = 1;

/**
 * One aggregate of the history: it plans its own future and, when a plan falls due, turns it
 * into an event. It keeps only what its later decisions need, never past events, so memory
 * grows with the aggregates alive at one instant, not with the history's length.
 */
export abstract class Actor<K extends string> implements Queued {
  dueAt = 0;
  seq = 0;
  version = 0;
  lastAt = -Infinity;
  readonly id: string;
  protected readonly world: World;
  private firstTask: Task<K> | undefined = undefined;

  constructor(world: World) {
    this.world = world;
    this.id = world.random.uuid();
  }

  /** When the next plan falls due; Infinity when there is none. */
  nextAt(): number {
    const task = this.firstTask;
    return task === undefined ? Infinity : Math.max(task.at, this.lastAt + MIN_GAP);
  }

  /** Carries out the plan due at `at`; null when it no longer applies (nothing happens). */
  step(at: number): EventBody | null {
    const task = this.firstTask;
    if (task === undefined) return null;
    this.firstTask = task.next;
    const { kind, ref } = task;
    this.release(task);
    return this.act(kind, ref, at);
  }

  protected abstract act(kind: K, ref: number, at: number): EventBody | null;

  /** Plans `kind` at `at` (rounded down to the second); plans past the history's end never happen. */
  protected plan(at: number, kind: K, ref = 0): void {
    const when = Math.floor(at);
    if (when > this.world.now) return;
    // Plans are recycled: most live for simulated days or years, long enough to reach the old
    // generation, and fresh ones per event would pile up there as garbage between collections.
    const task = (this.world.spareTasks.pop() as Task<K> | undefined) ?? { at: when, kind, ref, next: undefined };
    task.at = when;
    task.kind = kind;
    task.ref = ref;
    // After every plan at or before the same instant: equal instants keep their planning order.
    let before: Task<K> | undefined = undefined;
    let after = this.firstTask;
    while (after !== undefined && after.at <= when) {
      before = after;
      after = after.next;
    }
    task.next = after;
    if (before === undefined) this.firstTask = task;
    else before.next = task;
  }

  /** Drops every plan (a deleted aggregate does nothing more). */
  protected dropPlans(): void {
    while (this.firstTask !== undefined) {
      const task = this.firstTask;
      this.firstTask = task.next;
      this.release(task);
    }
  }

  private release(task: Task<K>): void {
    task.next = undefined;
    this.world.spareTasks.push(task);
  }
}
