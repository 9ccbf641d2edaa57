/** Progress of a long write on stderr: at most a line a second, then the total with its rate. */
export function progressMeter(verb: string): { report: (count: number) => void; done: (count: number, where: string) => void } {
  const started = performance.now();
  let lastReport = started;
  const rate = (count: number, now: number): string =>
    `${Math.round(count / Math.max((now - started) / 1000, 1e-3)).toLocaleString('en')} events/s`;
  return {
    report(count) {
      const now = performance.now();
      if (now - lastReport < 1000) return;
      lastReport = now;
      process.stderr.write(`› ${verb} ${count.toLocaleString('en')} events (${rate(count, now)})\n`);
    },
    done(count, where) {
      const now = performance.now();
      const seconds = ((now - started) / 1000).toFixed(1);
      process.stderr.write(`› ${verb} ${count.toLocaleString('en')} events to ${where} in ${seconds}s (${rate(count, now)})\n`);
    },
  };
}
