import { describe, expect, it } from 'vitest';
import { addCounts, metricSum, percentile, spread, statusLine, table } from './soakFigures.ts';

describe('soak figures', () => {
  it('takes nearest-rank percentiles of unsorted values', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 99)).toBe(10);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });

  it('gives the minimum, lower median and maximum', () => {
    expect(spread([30, 10, 40, 20])).toEqual({ min: 10, median: 20, max: 40 });
    expect(spread([]).median).toBeNaN();
  });

  it('sums every series of one metric and no other', () => {
    const page = [
      '# HELP projector_events_applied_total Events applied',
      '# TYPE projector_events_applied_total counter',
      'projector_events_applied_total{type="person.registered"} 12',
      'projector_events_applied_total{type="club.founded"} 3',
      'projector_events_applied_totally 100',
      'projector_events_dead_lettered_total{type="unknown"} 2',
    ].join('\n');
    expect(metricSum(page, 'projector_events_applied_total')).toBe(15);
    expect(metricSum(page, 'projector_events_dead_lettered_total')).toBe(2);
    expect(metricSum(page, 'absent_total')).toBe(0);
  });

  it('adds and prints status counts in order', () => {
    const counts = addCounts({ '200': 1 }, { '304': 2, '200': 1000 });
    expect(statusLine(counts)).toBe('200: 1,001, 304: 2');
    expect(statusLine({})).toBe('-');
  });

  it('pads a table by its widest cell', () => {
    expect(table(['what', 'a'], [['x', 'long cell']]).split('\n')).toEqual(['what  a', '----  ---------', 'x     long cell']);
  });
});
