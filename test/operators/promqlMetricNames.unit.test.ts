import { describe, expect, it } from 'vitest';
import { metricNamesIn } from './promqlMetricNames.ts';

describe('metricNamesIn', () => {
  it('takes selectors with and without matchers, not label names or values', () => {
    expect(metricNamesIn('projector_lag_seconds{service="projector", partition=~"1|2"} > 60')).toEqual(['projector_lag_seconds']);
    expect(metricNamesIn('up')).toEqual(['up']);
    expect(metricNamesIn('api_requests_total{status=~"5..", route!="x}y"}')).toEqual(['api_requests_total']);
  });

  it('skips functions, aggregations, grouping label lists, ranges and numbers', () => {
    const expr = 'histogram_quantile(0.99, sum by (le, route) (rate(api_request_duration_seconds_bucket{service="api"}[5m]))) > 1e-3';
    expect(metricNamesIn(expr)).toEqual(['api_request_duration_seconds_bucket']);
    expect(metricNamesIn('sum(rate(a_total[5m:1m])) without (instance) / on() group_left sum(b_total offset 1h)')).toEqual([
      'a_total',
      'b_total',
    ]);
    expect(metricNamesIn('max by (partition) (lag_messages) and on(partition) (deriv(lag_messages[10m]) >= 0)')).toEqual(['lag_messages']);
  });

  it('reads both sides of binary operators, also without spaces', () => {
    expect(metricNamesIn('a_sum/a_count')).toEqual(['a_sum', 'a_count']);
    expect(metricNamesIn('1-ratio unless absent(up{job="x"} == 1)')).toEqual(['ratio', 'up']);
    expect(metricNamesIn('sum(x) BY (le) OR y')).toEqual(['x', 'y']);
  });

  it('ignores Grafana variables and strings', () => {
    expect(metricNamesIn('sum(rate(m_total{instance=~"$api"}[$__rate_interval])) * $scale')).toEqual(['m_total']);
    expect(metricNamesIn('label_replace(m, "dst", "not_a_metric", "src", "(.*)")')).toEqual(['m']);
  });

  it('refuses a function it does not know, and an unclosed group', () => {
    expect(() => metricNamesIn('rates(m_total[5m])')).toThrow(/unknown PromQL function "rates"/);
    expect(() => metricNamesIn('m{service="api"')).toThrow(/unclosed/);
  });
});
