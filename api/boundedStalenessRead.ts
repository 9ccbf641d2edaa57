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

/**
 * Serves a value read from the database with a bounded staleness instead of one read per
 * caller: a caller arriving at t gets the newest completed read if it started at or after
 * t − maxAgeMs, else joins a read in flight that started in that span, else starts one. So
 * anything written before t − maxAgeMs is visible to it, while the database sees at most one
 * read per refreshEveryMs. Under load the background refresh keeps a fresh value at hand and
 * no caller waits; a caller waits only after idleness, or when a read takes longer than
 * maxAgeMs − refreshEveryMs (a slow database), because the bound comes first.
 */
export function boundedStalenessRead<T>(read: () => Promise<T>, options: BoundedStalenessOptions): BoundedStalenessRead<T> {
  const timers = options.timers ?? realTimers;
  let completed: { startedAt: number; value: T } | undefined;
  let inFlight: Started<T> | undefined;
  let lastCallerAt = Number.NEGATIVE_INFINITY;
  let cancelRefresh: (() => void) | undefined;
  let readsStarted = 0;

  const start = (): Started<T> => {
    const startedAt = timers.now();
    readsStarted += 1;
    const value = read();
    const started = { startedAt, value };
    inFlight = started;
    value.then(
      (result) => {
        if (!completed || completed.startedAt < startedAt) completed = { startedAt, value: result };
        if (inFlight === started) inFlight = undefined;
        scheduleRefresh(startedAt);
      },
      () => {
        if (inFlight === started) inFlight = undefined;
        // A failed read leaves the background refresh to the next caller (no retry storm).
      },
    );
    return started;
  };

  const scheduleRefresh = (lastStartedAt: number): void => {
    if (cancelRefresh || timers.now() - lastCallerAt > options.idleAfterMs) return;
    const wait = Math.max(0, lastStartedAt + options.refreshEveryMs - timers.now());
    cancelRefresh = timers.after(wait, () => {
      cancelRefresh = undefined;
      if (timers.now() - lastCallerAt > options.idleAfterMs || inFlight) return;
      start().value.catch(() => undefined);
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
