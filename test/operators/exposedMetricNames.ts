/**
 * The series names Prometheus stores from a /metrics page in the text format, read from its
 * `# TYPE` lines so that a labelled metric nothing has observed yet (no sample lines) counts
 * too: a histogram gives `_bucket`, `_sum` and `_count`, a summary its own name, `_sum` and
 * `_count`, a counter or gauge its name (prom-client's counters carry `_total` in the name).
 */
export function exposedMetricNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const typed = /^# TYPE ([A-Za-z_:][A-Za-z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (!typed) continue;
    const [, name, type] = typed as unknown as [string, string, string];
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    else if (type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(name + suffix);
    else names.add(name);
  }
  return names;
}
