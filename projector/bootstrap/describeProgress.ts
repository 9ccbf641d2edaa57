/** One line a person can read while a long replay runs: how far, how fast, how long still. */
export function describeProgress(applied: number, total: number, elapsedMs: number): string {
  const share = total === 0 ? 100 : Math.min(100, (100 * applied) / total);
  const rate = elapsedMs > 0 ? (applied * 1000) / elapsedMs : 0;
  const left = rate > 0 ? Math.ceil((total - applied) / rate) : null;
  const n = (x: number): string => Math.round(x).toLocaleString('en');
  return `${n(applied)} of ${n(total)} events (${share.toFixed(0)} %), ${n(rate)} events/s, ${left === null ? 'time left unknown' : `about ${n(left)} s left`}`;
}
