/** Timers, injectable so the rule can be tested on a virtual clock. */
export interface ReadTimers {
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** Runs `fn` after `ms`; must not keep the process alive. Returns a cancel function. */
  readonly after: (ms: number, fn: () => void) => () => void;
}

export interface BoundedStalenessOptions {
  /** A value may be served when the read that produced it started at most this long before the caller arrived. */
  readonly maxAgeMs: number;
  /**
   * While callers keep arriving, a read starts at least this often in the background, so a
   * caller finds a fresh enough value already read and does not wait. Below maxAgeMs by at least
   * a quick read's duration.
   */
  readonly refreshEveryMs: number;
  /**
   * While many callers come (BUSY_CALLERS per maxAgeMs), reads that take longer bring the
   * next one forward (maxAgeMs less twice the recent longest read), overlapping when they must, so the value at hand is replaced before it grows too old;
   * never sooner than this after the last start. It bounds the reads per second (1000 /
   * minRefreshMs) whatever the load. Default: refreshEveryMs (no reads brought forward).
   */
  readonly minRefreshMs?: number;
  /** The background reads stop after this long without a caller (an idle instance reads nothing). */
  readonly idleAfterMs: number;
  readonly timers?: ReadTimers;
}

export interface BoundedStalenessRead<T> {
  /** The value of a read that started at most maxAgeMs before `arrivedAtMs`; sync when one is at hand. */
  get(arrivedAtMs: number): T | Promise<T>;
  /** Stops the background reads (they also stop by themselves when idle). */
  stop(): void;
  /** Reads started so far (for tests and metrics). */
  readonly readsStarted: number;
  /** Callers that had to wait for a read (for tests and metrics). */
  readonly callersWaited: number;
}

interface Started<T> {
  readonly startedAt: number;
  readonly value: Promise<T>;
}

const realTimers: ReadTimers = {
  now: Date.now,
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** How many of the latest reads' durations the next start is planned on. */
const DURATIONS_KEPT = 8;

/**
 * Callers in a span of maxAgeMs (this one or the one before) past which reads are brought
 * forward: with fewer, the one that finds the value too old waits for a read and the database is
 * spared the extra reads.
 */
const BUSY_CALLERS = 16;

/**
 * Serves a value read from the database with a bounded staleness instead of one read per
 * caller: a caller arriving at t gets the newest completed read if it started at or after
 * t − maxAgeMs, else joins a read in flight that started in that span, else starts one. So
 * anything written before t − maxAgeMs is visible to it, while the database sees at most one
 * read per minRefreshMs. While callers come, the next read starts early enough to complete
 * before the value at hand passes maxAgeMs: after refreshEveryMs when reads are quick, sooner
 * (down to minRefreshMs, several in flight) when the database or a busy event loop makes them
 * slow and callers many, which is when every caller would otherwise wait on one read. A busy instance checks
 * whether a read is due on each call, so it does not depend on a timer firing on time; an idle
 * one reads nothing, and a caller then waits for one read.
 */
export function boundedStalenessRead<T>(read: () => Promise<T>, options: BoundedStalenessOptions): BoundedStalenessRead<T> {
  return new StalenessBoundedReader(read, options);
}

class StalenessBoundedReader<T> implements BoundedStalenessRead<T> {
  readonly #read: () => Promise<T>;
  readonly #options: BoundedStalenessOptions;
  readonly #timers: ReadTimers;
  readonly #minRefreshMs: number;
  /** Reads in flight at once: enough to overlap reads as long as maxAgeMs, and no pile-up on a dead database. */
  readonly #maxInFlight: number;
  #completed: { startedAt: number; value: T } | undefined;
  #inFlight: Array<Started<T>> = [];
  #lastStartedAt = Number.NEGATIVE_INFINITY;
  #lastCallerAt = Number.NEGATIVE_INFINITY;
  #cancelRefresh: (() => void) | undefined;
  #readsStarted = 0;
  #callersWaited = 0;
  /** Callers in the current span of maxAgeMs (by arrival), and in the one before. */
  #span = Number.NEGATIVE_INFINITY;
  #callersInSpan = 0;
  #callersInSpanBefore = 0;
  readonly #durations: number[] = [];

  constructor(read: () => Promise<T>, options: BoundedStalenessOptions) {
    this.#read = read;
    this.#options = options;
    this.#timers = options.timers ?? realTimers;
    this.#minRefreshMs = Math.min(options.minRefreshMs ?? options.refreshEveryMs, options.refreshEveryMs);
    this.#maxInFlight = Math.max(1, Math.ceil(options.maxAgeMs / this.#minRefreshMs));
  }

  get readsStarted(): number {
    return this.#readsStarted;
  }

  get callersWaited(): number {
    return this.#callersWaited;
  }

  get(arrivedAtMs: number): T | Promise<T> {
    this.#lastCallerAt = Math.max(this.#lastCallerAt, arrivedAtMs);
    this.#count(arrivedAtMs);
    const oldestAllowed = arrivedAtMs - this.#options.maxAgeMs;
    const completed = this.#completed;
    if (completed && completed.startedAt >= oldestAllowed) {
      if (this.#due()) this.#background();
      else this.#scheduleRefresh();
      return completed.value;
    }
    this.#callersWaited += 1;
    const joined = this.#inFlight.find((started) => started.startedAt >= oldestAllowed);
    return (joined ?? this.#start()).value;
  }

  #count(arrivedAtMs: number): void {
    const span = Math.floor(arrivedAtMs / this.#options.maxAgeMs);
    if (span !== this.#span) {
      this.#callersInSpanBefore = span === this.#span + 1 ? this.#callersInSpan : 0;
      this.#callersInSpan = 0;
      this.#span = span;
    }
    this.#callersInSpan += 1;
  }

  stop(): void {
    this.#cancelRefresh?.();
    this.#cancelRefresh = undefined;
    this.#lastCallerAt = Number.NEGATIVE_INFINITY;
  }

  /** Milliseconds from one start to the next: shorter when recent reads took long and callers are many. */
  #interval(): number {
    if (Math.max(this.#callersInSpan, this.#callersInSpanBefore) < BUSY_CALLERS) return this.#options.refreshEveryMs;
    const longest = this.#durations.length === 0 ? 0 : Math.max(...this.#durations);
    return Math.min(this.#options.refreshEveryMs, Math.max(this.#minRefreshMs, this.#options.maxAgeMs - 2 * longest));
  }

  #idle(): boolean {
    return this.#timers.now() - this.#lastCallerAt > this.#options.idleAfterMs;
  }

  #due(): boolean {
    return (
      this.#completed !== undefined &&
      this.#timers.now() >= this.#lastStartedAt + this.#interval() &&
      this.#inFlight.length < this.#maxInFlight
    );
  }

  #background(): void {
    // A failed read leaves the background refresh to the next caller (no retry storm).
    this.#start().value.catch(() => undefined);
  }

  #start(): Started<T> {
    const startedAt = this.#timers.now();
    this.#readsStarted += 1;
    this.#lastStartedAt = startedAt;
    const started = { startedAt, value: this.#read() };
    this.#inFlight.push(started);
    const settled = (): void => {
      this.#inFlight = this.#inFlight.filter((other) => other !== started);
    };
    started.value.then((result) => {
      this.#durations.push(this.#timers.now() - startedAt);
      if (this.#durations.length > DURATIONS_KEPT) this.#durations.shift();
      if (!this.#completed || this.#completed.startedAt < startedAt) this.#completed = { startedAt, value: result };
      settled();
      this.#scheduleRefresh();
    }, settled);
    return started;
  }

  #scheduleRefresh(): void {
    if (this.#cancelRefresh || this.#idle()) return;
    const wait = Math.max(0, this.#lastStartedAt + this.#interval() - this.#timers.now());
    this.#cancelRefresh = this.#timers.after(wait, () => {
      this.#cancelRefresh = undefined;
      if (this.#idle()) return;
      if (this.#due()) this.#background();
      else if (this.#inFlight.length === 0) this.#scheduleRefresh();
    });
  }
}
