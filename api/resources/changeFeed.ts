import type { Db } from 'mongodb';
import { changeCollections, readChangesAfter, readFeedBounds, type ChangeRecord } from '../../services/changes/index.ts';
import { readMeta } from '../../services/mongo/index.ts';
import { VERSION_FRESHNESS } from '../readModelSource.ts';

export interface ChangeFeedOptions {
  /** How often the one reader looks for new changes while someone listens. */
  readonly pollMs?: number;
  /** Changes the instance keeps in memory for its streams and long polls. */
  readonly ringSize?: number;
  /** Changes per read. */
  readonly readLimit?: number;
}

/** Where the feed stands on this instance: its generation, the newest change released, the oldest the database keeps. */
export interface FeedState {
  readonly generation: number;
  /** Every change at or below this position has been released to requests (visible in the listings). */
  readonly released: number;
  /** Changes at or below this position were trimmed: a cursor below answers 410. */
  readonly trimmedThrough: number;
}

const META_EVERY_MS = 1_000;

/** The changes after a cursor were trimmed while it was being followed. */
export class CursorTrimmed extends Error {
  override name = 'CursorTrimmed';
  readonly trimmedThrough: number;
  constructor(trimmedThrough: number) {
    super(`changes through ${trimmedThrough} were trimmed`);
    this.trimmedThrough = trimmedThrough;
  }
}

/**
 * The instance's one reader of the change log: however many streams and long polls it serves,
 * one loop reads the new changes (every pollMs while anyone listens), keeps the newest in a ring
 * and wakes the listeners; reads of older changes (a cursor behind the ring) queue behind it, one
 * at a time.
 *
 * A change is released only VERSION_FRESHNESS.maxAgeMs after the read that found it ended: any
 * request arriving after that, on any instance, is served with a version read that started after
 * the change was committed, and so after its listing's version moved (appendChanges): the feed
 * never shows a change before the listings do.
 */
export class ChangeFeed {
  readonly #db: Db;
  readonly #pollMs: number;
  readonly #ringSize: number;
  readonly #readLimit: number;
  #state: FeedState | null = null;
  #ring: ChangeRecord[] = [];
  readonly #listeners = new Set<() => void>();
  /** Every database read of the feed, chained: one at a time per instance. */
  #reads: Promise<unknown> = Promise.resolve();
  #loop: Promise<void> | null = null;
  #metaReadAt = 0;
  #ticking: Promise<void> | null = null;
  #stopped = false;

  constructor(db: Db, options: ChangeFeedOptions = {}) {
    this.#db = db;
    this.#pollMs = options.pollMs ?? 100;
    this.#ringSize = options.ringSize ?? 10_000;
    this.#readLimit = options.readLimit ?? 1_000;
  }

  /** The feed's state, read once when nobody has listened lately. */
  async state(): Promise<FeedState> {
    if (this.#state === null || (this.#loop === null && performance.now() - this.#metaReadAt > this.#pollMs)) await this.#tickOnce();
    return this.#state!;
  }

  /** The released changes after `after` that the ring holds, or null when it does not reach back that far. */
  fromRing(after: number): ChangeRecord[] | null {
    const first = this.#ring[0]?._id ?? (this.#state?.released ?? 0) + 1;
    if (after < first - 1) return null;
    return this.#ring.slice(Math.max(0, after - first + 1));
  }

  /** Released changes after `after`, from the ring or, behind it, from the database (queued behind the other reads). */
  async after(after: number, limit: number): Promise<ChangeRecord[]> {
    const ring = this.fromRing(after);
    const state = await this.state();
    if (ring) return ring.slice(0, limit);
    const names = changeCollections(state.generation);
    const found = await this.#read(() => readChangesAfter(this.#db, names, after, Math.min(limit, this.#readLimit)));
    if (found.length === 0 && after < state.released) {
      // Released changes after `after` are missing: trimmed since the trimmed position was last read.
      const bounds = await this.#read(() => readFeedBounds(this.#db, names));
      if (after < bounds.trimmedThrough) throw new CursorTrimmed(bounds.trimmedThrough);
    }
    return found.filter((record) => record._id <= state.released);
  }

  /** Calls `listener` after every release until the returned function is called. */
  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    this.#loop ??= this.#run();
    return () => this.#listeners.delete(listener);
  }

  stop(): void {
    this.#stopped = true;
  }

  async #run(): Promise<void> {
    try {
      while (!this.#stopped && this.#listeners.size > 0) {
        const began = performance.now();
        try {
          await this.#tickOnce();
        } catch {
          // The database is away: listeners keep their position, the next tick tries again.
        }
        await sleep(Math.max(0, this.#pollMs - (performance.now() - began)));
      }
    } finally {
      this.#loop = null;
    }
  }

  #read<T>(read: () => Promise<T>): Promise<T> {
    const result = this.#reads.then(read, read);
    this.#reads = result.catch(() => undefined);
    return result;
  }

  /** One tick at a time, shared by whoever asks meanwhile. */
  #tickOnce(): Promise<void> {
    this.#ticking ??= this.#tick().finally(() => (this.#ticking = null));
    return this.#ticking;
  }

  /** One read of new changes (and, every second, of the generation and the trimmed position), then their release. */
  async #tick(): Promise<void> {
    const state = this.#state;
    const now = performance.now();
    let generation = state?.generation;
    let trimmedThrough = state?.trimmedThrough ?? 0;
    let released = state?.released ?? 0;
    if (state === null || now - this.#metaReadAt >= META_EVERY_MS || this.#loop === null) {
      const meta = await this.#read(() => readMeta(this.#db));
      const bounds = await this.#read(() => readFeedBounds(this.#db, changeCollections(meta.generation)));
      this.#metaReadAt = now;
      trimmedThrough = bounds.trimmedThrough;
      if (meta.generation !== generation) {
        // A new generation (or the first read): its feed is followed from the changes it already holds.
        generation = meta.generation;
        released = Math.max(bounds.trimmedThrough, bounds.seq);
        this.#ring = [];
        this.#state = { generation, released, trimmedThrough };
        await sleep(VERSION_FRESHNESS.maxAgeMs);
        this.#wake();
        return;
      }
    }
    const names = changeCollections(generation!);
    const found = await this.#read(() => readChangesAfter(this.#db, names, released, this.#readLimit));
    if (found.length > 0) await sleep(VERSION_FRESHNESS.maxAgeMs);
    if (this.#state?.generation !== generation) return;
    this.#ring.push(...found);
    if (this.#ring.length > this.#ringSize) this.#ring.splice(0, this.#ring.length - this.#ringSize);
    this.#state = { generation: generation!, released: found.at(-1)?._id ?? released, trimmedThrough };
    if (found.length > 0 || state?.trimmedThrough !== trimmedThrough) this.#wake();
  }

  #wake(): void {
    for (const listener of this.#listeners) listener();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
