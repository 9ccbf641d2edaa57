import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import type { Registry } from 'prom-client';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FallbackRateLimitStore } from '../../api/http/fallbackRateLimitStore.ts';
import { MemoryRateLimitStore } from '../../api/http/memoryRateLimitStore.ts';
import { httpMetrics } from '../../api/httpMetrics.ts';
import { createProjectorMetrics } from '../../projector/metrics/projectorMetrics.ts';
import { createLogger } from '../../services/logger.ts';
import { createRegistry } from '../../services/metrics/createRegistry.ts';
import { observeCommandDurations } from '../../services/mongo/observeCommandDurations.ts';
import { readinessGauge } from '../../services/ops/index.ts';
import { exposedMetricNames } from './exposedMetricNames.ts';
import { dashboardQueries, metricsNotExported, OPERATORS, ruleQueries } from './operatorQueries.ts';
import { metricNamesIn } from './promqlMetricNames.ts';

// Every metric operators/alerts.yml and operators/dashboard.json read must be one the processes
// export: the registries are built here by the functions the two processes register their
// metrics with (test/operators/exportedMetrics.int.test.ts scrapes the real processes too).

async function namesOf(registry: Registry): Promise<Set<string>> {
  return exposedMetricNames(await registry.metrics());
}

/** What both processes register beside their own metrics: the operators' port and the database client. */
function sharedMetrics(registry: Registry): void {
  readinessGauge(registry, () => Promise.resolve(true));
  observeCommandDurations(new EventEmitter(), registry);
}

async function exportedByBothProcesses(): Promise<Set<string>> {
  const projector = createRegistry('projector');
  createProjectorMetrics(projector);
  sharedMetrics(projector);
  const api = createRegistry('api');
  httpMetrics(api, '/api/v1');
  sharedMetrics(api);
  new FallbackRateLimitStore({
    primary: new MemoryRateLimitStore(),
    fallback: new MemoryRateLimitStore(),
    logger: createLogger('test', 'silent'),
    metrics: api,
  });
  return new Set([...(await namesOf(projector)), ...(await namesOf(api))]);
}

describe('operators/ reads only metrics the code exports', () => {
  it('every metric of every alert rule and dashboard query is exported', async () => {
    const exported = await exportedByBothProcesses();
    const queries = [...ruleQueries(), ...dashboardQueries()];
    expect(queries.length).toBeGreaterThan(40);
    expect(metricsNotExported(queries, exported)).toEqual([]);
  });

  it('a renamed metric is reported wherever it is read', async () => {
    const exported = await exportedByBothProcesses();
    exported.delete('projector_lag_seconds');
    exported.add('projector_lag_age_seconds');
    const missing = metricsNotExported([...ruleQueries(), ...dashboardQueries()], exported);
    expect(missing).toContain('alerts.yml federation-projector/FederationProjectorLagging: projector_lag_seconds');
    expect(missing).toContain('dashboard.json panel "Lag (age of the oldest unapplied event)": projector_lag_seconds');
  });

  it('histograms are read through their series (_bucket, _sum, _count), never by their bare name', async () => {
    const exported = await exportedByBothProcesses();
    expect(exported).toContain('projector_clock_sweep_duration_seconds_count');
    expect(exported).toContain('api_request_duration_seconds_bucket');
    expect(exported).not.toContain('api_request_duration_seconds');
  });
});

describe('operators/alerts.yml', () => {
  const rules = (
    parse(readFileSync(join(OPERATORS, 'alerts.yml'), 'utf8')) as { groups: Array<{ rules: Array<Record<string, unknown>> }> }
  ).groups.flatMap((g) => g.rules);
  const reading = (metric: string): string[] =>
    rules.filter((r) => metricNamesIn(String(r.expr)).includes(metric)).map((r) => String(r.alert));

  it('alerts on what an operator must hear about', () => {
    expect(reading('projector_lag_seconds')).toEqual(['FederationProjectorLagging', 'FederationProjectorStalled']);
    expect(reading('projector_consumer_lag_messages')).toEqual(['FederationProjectorBacklog']);
    expect(reading('projector_partition_stalled')).toEqual(['FederationProjectorPartitionStalled']);
    expect(reading('projector_events_dead_lettered_total')).toEqual(['FederationProjectorDeadLetters']);
    expect(reading('projector_clock_sweep_duration_seconds_count')).toEqual(['FederationProjectorClockStalled']);
    expect(reading('projector_consumer_running')).toEqual(['FederationProjectorConsumerStopped']);
    expect(reading('projector_version_gaps_total')).toEqual(['FederationProjectorVersionGaps']);
    expect(reading('health_ready')).toEqual(['FederationProjectorNotReady', 'FederationApiNotReady', 'FederationNoApiReady']);
    expect(reading('nodejs_heap_size_limit_bytes')).toEqual(['FederationHeapNearLimit']);
    expect(reading('projector_events_topic_keeps_everything')).toEqual(['FederationEventsTopicRetention']);
    expect(reading('projector_events_topic_complete')).toEqual(['FederationEventsTopicIncomplete']);
    // The consumer and the clock start after a bootstrap: their alerts leave a bootstrapping instance alone.
    expect(reading('projector_bootstrap_running')).toEqual([
      'FederationProjectorStalled',
      'FederationProjectorClockStalled',
      'FederationProjectorConsumerStopped',
      'FederationProjectorNotReady',
      'FederationProjectorBootstrapStuck',
    ]);
    expect(reading('api_rate_limited_total')).toEqual(['FederationApiRateLimiting']);
    expect(reading('api_rate_limit_fallback_total')).toEqual(['FederationApiRateLimitAlone']);
    expect(reading('api_requests_total')).toContain('FederationApiErrors');
    expect(reading('up')).toEqual(['FederationProjectorDown', 'FederationNoProjector', 'FederationApiDown', 'FederationNoApi']);
  });

  it('every rule has a severity, a wait, a summary and what to do', () => {
    for (const rule of rules) {
      const annotations = rule.annotations as Record<string, string>;
      expect(rule.labels, String(rule.alert)).toMatchObject({ severity: expect.stringMatching(/^(warning|critical)$/) });
      expect(rule.for, String(rule.alert)).toMatch(/^\d+[smh]$/);
      expect(annotations.summary, String(rule.alert)).toBeTruthy();
      expect(annotations.description?.length, String(rule.alert)).toBeGreaterThan(100);
    }
  });
});
