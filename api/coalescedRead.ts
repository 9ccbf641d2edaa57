/** Runs `fn` on the next turn of the event loop (setImmediate in production). */
export type Scheduler = (fn: () => void) => void;

/**
 * Coalesces concurrent reads without serving stale ones: a caller joins the NEXT scheduled
 * read, never one already in flight, so every caller sees a read that started after it asked
 * (an edit committed before a request is visible to it). Callers arriving before the scheduled
 * read fires share it; while one read is in flight, the next one waits for it to finish, so
 * at most one read runs at a time and at most one more is queued, whatever the load.
 */
export function coalescedRead<T>(read: () => Promise<T>, schedule: Scheduler = setImmediate): () => Promise<T> {
  let queued: Promise<T> | undefined;
  let inFlight: Promise<unknown> | undefined;

  const fire = (): Promise<T> => {
    queued = undefined;
    const run = read();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    inFlight = settled;
    void settled.then(() => {
      if (inFlight === settled) inFlight = undefined;
    });
    return run;
  };

  return () => {
    if (queued) return queued;
    const next = new Promise<T>((resolve, reject) => {
      schedule(() => {
        const start = (): void => void fire().then(resolve, reject);
        if (inFlight) void inFlight.then(start);
        else start();
      });
    });
    queued = next;
    return next;
  };
}
