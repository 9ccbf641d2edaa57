import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../../infra/paths.ts';
import { metricNamesIn } from './promqlMetricNames.ts';

export const OPERATORS = join(ROOT, 'operators');

/** One PromQL expression shipped to operators, and where it sits (for a failure's message). */
export interface OperatorQuery {
  where: string;
  expr: string;
}

/** Every alert and recording rule expression of a Prometheus rules file. */
export function ruleQueries(file = join(OPERATORS, 'alerts.yml')): OperatorQuery[] {
  const rules = parse(readFileSync(file, 'utf8')) as {
    groups: Array<{ name: string; rules: Array<{ alert?: string; record?: string; expr: string }> }>;
  };
  return rules.groups.flatMap((group) =>
    group.rules.map((rule) => ({ where: `alerts.yml ${group.name}/${rule.alert ?? rule.record}`, expr: rule.expr })),
  );
}

/**
 * Every PromQL expression of a Grafana dashboard: each panel target's `expr` (rows included) and
 * each query variable's selector (`label_values(<selector>, <label>)`; other variable functions
 * are refused so they get looked at).
 */
export function dashboardQueries(file = join(OPERATORS, 'dashboard.json')): OperatorQuery[] {
  const dashboard = JSON.parse(readFileSync(file, 'utf8')) as {
    panels?: unknown[];
    templating?: { list?: Array<{ name: string; type: string; query?: unknown }> };
  };
  const queries: OperatorQuery[] = [];
  const visit = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((child) => visit(child, where));
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    const here = typeof record.title === 'string' ? `dashboard.json panel "${record.title}"` : where;
    if (typeof record.expr === 'string') queries.push({ where: here, expr: record.expr });
    for (const [key, value] of Object.entries(record)) if (key !== 'expr') visit(value, here);
  };
  visit(dashboard.panels ?? [], 'dashboard.json');
  for (const variable of dashboard.templating?.list ?? []) {
    if (variable.type !== 'query') continue;
    const query = typeof variable.query === 'string' ? variable.query : ((variable.query as { query?: string } | undefined)?.query ?? '');
    const selector = /^label_values\((.+),\s*[A-Za-z_][A-Za-z0-9_]*\)$/s.exec(query.trim())?.[1];
    if (selector === undefined)
      throw new Error(`dashboard variable "${variable.name}": only label_values(<selector>, <label>) is checked, got ${query}`);
    queries.push({ where: `dashboard.json variable "${variable.name}"`, expr: selector });
  }
  return queries;
}

/** Metrics Prometheus itself makes for every target; the code cannot export them. */
const FROM_PROMETHEUS = new Set(['up']);

/** Each metric a query reads that is not in `exported`, with where it is read. */
export function metricsNotExported(queries: readonly OperatorQuery[], exported: ReadonlySet<string>): string[] {
  return queries.flatMap(({ where, expr }) =>
    metricNamesIn(expr)
      .filter((name) => !exported.has(name) && !FROM_PROMETHEUS.has(name))
      .map((name) => `${where}: ${name}`),
  );
}
