/** One line of a seed's progress: how far, how fast, and about how long is left. */
export function progressLine(what: string, done: number, total: number | null, seconds: number): string {
  const rate = seconds > 0 ? done / seconds : 0;
  const count = done.toLocaleString('en-US');
  if (total === null || total === 0) return `${what} ${count} events, ${Math.round(rate).toLocaleString('en-US')} events/s`;
  const left = rate > 0 ? Math.max(0, total - done) / rate : null;
  return (
    `${what} ${count} of ${total.toLocaleString('en-US')} events (${((100 * done) / total).toFixed(1)} %), ` +
    `${Math.round(rate).toLocaleString('en-US')} events/s${left === null ? '' : `, about ${duration(left)} left`}`
  );
}

/** `42 s`, `3 min 5 s`. */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Calls `print` at most once every `everyMs` (and always for the last call, `final`). */
export function throttled<T extends unknown[]>(
  everyMs: number,
  now: () => number,
  print: (...args: T) => void,
): (final: boolean, ...args: T) => void {
  let last = -Infinity;
  return (final, ...args) => {
    const t = now();
    if (!final && t - last < everyMs) return;
    last = t;
    print(...args);
  };
}
