import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './readProjectorStatus.ts';

describe('parsePrometheusText', () => {
  it('reads samples by name with their labels, skipping comments', () => {
    const text = [
      '# HELP projector_events_applied_total Events folded',
      '# TYPE projector_events_applied_total counter',
      'projector_events_applied_total{type="person.registered"} 12',
      'projector_events_applied_total{type="club.registered"} 3',
      'projector_lag_seconds 0.5',
      '',
    ].join('\n');
    const samples = parsePrometheusText(text);
    expect(samples.get('projector_events_applied_total')).toEqual([
      { labels: '{type="person.registered"}', value: 12 },
      { labels: '{type="club.registered"}', value: 3 },
    ]);
    expect(samples.get('projector_lag_seconds')).toEqual([{ labels: '', value: 0.5 }]);
    expect(samples.has('# HELP')).toBe(false);
  });
});
