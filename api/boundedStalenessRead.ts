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
   * While callers keep arriving, a read starts this often in the background, so a caller finds
   * a fresh enough value already read and does not wait. Below maxAgeMs by at least a read's
   * duration; it also bounds the reads per second (1000 / refreshEveryMs) whatever the load.
   */
  readonly refreshEveryMs: number;
  /**
   * How much sooner the next background read may start when recent ones were late: a read
   * lasts its round trip plus whatever the busy event loop makes it (and its timer) wait, and a
   * read still running when the newest completed value ages past maxAgeMs makes callers wait.
   * So the next read starts early enough for the slowest of the last few to have ended by then,
   * but never sooner than this after the previous one started, and only one runs at a time.
   * Default refreshEveryMs (a fixed cadence).
   */
  readonly minRefreshEveryMs?: number;
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

/** How many recent background reads tell how late the next one may be. */
const LATENESS_SAMPLES = 8;
/** Slack between the next read's expected end and the bound. */
const LATENESS_MARGIN_MS = 2;

/**
 * Serves a value read from the database with a bounded staleness instead of one read per
 * caller: a caller arriving at t gets the newest completed read if it started at or after
 * t − maxAgeMs, else joins a read in flight that started in that span, else starts one. So
 * anything written before t − maxAgeMs is visible to it, while the database sees at most one
 * read per refreshEveryMs while reads are quick, and one per minRefreshEveryMs at most when they
 * are slow. Under load the background refresh keeps a fresh value at hand and no caller waits; a
 * caller waits only after idleness, or when reads take longer than about half of maxAgeMs (a slow
 * database or a saturated event loop), because the bound comes first.
 */
export function boundedStalenessRead<T>(read: () => Promise<T>, options: BoundedStalenessOptions): BoundedStalenessRead<T> {
  const timers = options.timers ?? realTimers;
  let completed: { startedAt: number; value: T } | undefined;
  let inFlight: Started<T> | undefined;
  let lastCallerAt = Number.NEGATIVE_INFINITY;
  let cancelRefresh: (() => void) | undefined;
  let readsStarted = 0;
  const minInterval = Math.min(options.minRefreshEveryMs ?? options.refreshEveryMs, options.refreshEveryMs);
  /** Of the last few background reads: how long after it was due each one's value came in. */
  const recentLateness: number[] = [];

  const start = (dueAt?: number): Started<T> => {
    const startedAt = timers.now();
    readsStarted += 1;
    const value = read();
    const started = { startedAt, value };
    inFlight = started;
    value.then(
      (result) => {
        if (!completed || completed.startedAt < startedAt) completed = { startedAt, value: result };
        if (inFlight === started) inFlight = undefined;
        if (dueAt !== undefined) remember(timers.now() - dueAt);
        scheduleRefresh(startedAt);
      },
      () => {
        if (inFlight === started) inFlight = undefined;
        // A failed read leaves the background refresh to the next caller (no retry storm).
      },
    );
    return started;
  };

  const remember = (latenessMs: number): void => {
    recentLateness.push(latenessMs);
    if (recentLateness.length > LATENESS_SAMPLES) recentLateness.shift();
  };

  /** The next background read's delay after the previous start: the cadence, shortened by the recent reads' lateness. */
  const interval = (): number => {
    if (minInterval === options.refreshEveryMs || recentLateness.length === 0) return options.refreshEveryMs;
    const late = Math.max(...recentLateness);
    return Math.min(options.refreshEveryMs, Math.max(minInterval, options.maxAgeMs - LATENESS_MARGIN_MS - late));
  };

  const scheduleRefresh = (lastStartedAt: number): void => {
    const now = timers.now();
    if (cancelRefresh || now - lastCallerAt > options.idleAfterMs) return;
    const dueAt = Math.max(now, lastStartedAt + interval());
    cancelRefresh = timers.after(dueAt - now, () => {
      cancelRefresh = undefined;
      if (timers.now() - lastCallerAt > options.idleAfterMs || inFlight) return;
      start(dueAt).value.catch(() => undefined);
    });
  };

  return {
    get(arrivedAtMs) {
      lastCallerAt = Math.max(lastCallerAt, arrivedAtMs);
      const oldestAllowed = arrivedAtMs - options.maxAgeMs;
      if (completed && completed.startedAt >= oldestAllowed) {
        if (!inFlight) scheduleRefresh(completed.startedAt);
        return completed.value;
      }
      if (inFlight && inFlight.startedAt >= oldestAllowed) return inFlight.value;
      return start().value;
    },
    stop() {
      cancelRefresh?.();
      cancelRefresh = undefined;
      lastCallerAt = Number.NEGATIVE_INFINITY;
    },
    get readsStarted() {
      return readsStarted;
    },
  };
}
