import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDebianPackage } from '../../infra/installDebianPackage.ts';
import { dashboardQueries, OPERATORS } from './operatorQueries.ts';

// Prometheus's own checker on what operators/ ships: the rules load, their unit tests
// (operators/alerts.test.yml) pass, the scrape configuration loads, and every dashboard query is
// PromQL Prometheus accepts. promtool comes from Debian's prometheus package, installed once.

let promtoolPath = '';
const scratch = mkdtempSync(join(tmpdir(), 'operators-'));

function promtool(...args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(promtoolPath, args, { encoding: 'utf8', timeout: 60_000 });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  promtoolPath = await installDebianPackage(
    { pkg: 'prometheus', executable: 'promtool', otherwise: "install Debian's prometheus package, or put Prometheus's promtool on PATH" },
    (line) => process.stderr.write(`${line}\n`),
  );
}, 600_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('operators/alerts.yml under promtool', () => {
  it('loads: promtool check rules', () => {
    const checked = promtool('check', 'rules', join(OPERATORS, 'alerts.yml'));
    expect(checked.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(checked.ok).toBe(true);
  });

  it('passes its unit tests: a caught-up projector does not fire, a stalled one does', () => {
    const tested = promtool('test', 'rules', join(OPERATORS, 'alerts.test.yml'));
    expect(tested.output).toContain('SUCCESS');
    expect(tested.ok).toBe(true);
  });

  it('the unit tests catch a lag alert that would fire on a caught-up projector', () => {
    // Same tests against a copy whose warning fires at any lag, 0 included.
    const rules = readFileSync(join(OPERATORS, 'alerts.yml'), 'utf8');
    const loose = rules.replace(
      'max(projector_lag_seconds{service="projector"}) > 60',
      'max(projector_lag_seconds{service="projector"}) >= 0',
    );
    expect(loose).not.toBe(rules);
    writeFileSync(join(scratch, 'alerts.yml'), loose);
    copyFileSync(join(OPERATORS, 'alerts.test.yml'), join(scratch, 'alerts.test.yml'));
    const tested = promtool('test', 'rules', join(scratch, 'alerts.test.yml'));
    expect(tested.ok).toBe(false);
    expect(tested.output).toContain('a caught-up projector and a busy one that keeps up never alert on lag');
  });

  it('refuses a rules file that is not PromQL (the check can fail)', () => {
    const broken = join(scratch, 'broken.yml');
    writeFileSync(broken, stringify({ groups: [{ name: 'x', rules: [{ alert: 'X', expr: 'sum(rate(projector_lag_seconds[5m])' }] }] }));
    expect(promtool('check', 'rules', broken).ok).toBe(false);
  });
});

describe('operators/prometheus.yml and dashboard.json under promtool', () => {
  it('the scrape configuration and its rule files load: promtool check config', () => {
    const checked = promtool('check', 'config', join(OPERATORS, 'prometheus.yml'));
    expect(checked.output).toContain('is valid prometheus config file syntax');
    expect(checked.ok).toBe(true);
  });

  it('every dashboard query is PromQL Prometheus accepts (Grafana variables filled in)', () => {
    const queries = dashboardQueries();
    const asRules = queries.map(({ expr }, i) => ({
      record: `dashboard:query_${i}`,
      expr: expr.replaceAll('$__rate_interval', '5m').replace(/\$\{?[A-Za-z0-9_]+\}?/g, '.*'),
    }));
    const file = join(scratch, 'dashboard-rules.yml');
    writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules: asRules }] }));
    const checked = promtool('check', 'rules', file);
    expect(checked.output).toContain(`SUCCESS: ${queries.length} rules found`);
    expect(checked.ok).toBe(true);
  });
});
