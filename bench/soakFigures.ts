// Pure figures of the soak and hostile-fold benchmarks: percentiles, spreads, counters read
// from a Prometheus text page, and the side-by-side table they print.

/** The nearest-rank percentile (`p` from 0 to 100) of unsorted values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface Spread {
  min: number;
  median: number;
  max: number;
}

/** Minimum, median (the lower middle of an even count) and maximum; NaN for none. */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { min: NaN, median: NaN, max: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor((sorted.length - 1) / 2)]!, max: sorted[sorted.length - 1]! };
}

/** The sum of every series of the counter or gauge `name` on a Prometheus text page (0 when absent). */
export function metricSum(page: string, name: string): number {
  let sum = 0;
  for (const line of page.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)/.exec(line);
    if (match?.[1] === name) sum += Number(match[3]);
  }
  return sum;
}

/** Status counts as `200: 1,234, 304: 56` in ascending order of status. */
export function statusLine(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? '-' : entries.map(([status, n]) => `${status}: ${n.toLocaleString('en')}`).join(', ');
}

/** Adds `more` into `into`, key by key. */
export function addCounts(into: Record<string, number>, more: Readonly<Record<string, number>>): Record<string, number> {
  for (const [key, n] of Object.entries(more)) into[key] = (into[key] ?? 0) + n;
  return into;
}

/** Rows of label and one cell per column, padded into a plain-text table. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;
export const ms = (value: number): string =>
  Number.isNaN(value) ? '-' : value < 10 ? `${value.toFixed(2)} ms` : `${Math.round(value)} ms`;
export const spreadMb = (s: Spread): string =>
  Number.isNaN(s.min) ? '-' : `${Math.round(s.min)} / ${Math.round(s.median)} / ${Math.round(s.max)} MB`;
