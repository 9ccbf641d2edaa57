import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createProjectorMetrics } from '../metrics/projectorMetrics.ts';
import { parsePrometheusText } from './readProjectorStatus.ts';
import { formatLine, stalledPartitionLines, talliesLine } from './statusLines.ts';

describe('formatLine', () => {
  const now = Date.parse('2026-11-26T10:00:00Z');
  it('says the live format, and what an older or a newer one means', () => {
    expect(formatLine(2, 2, null, now)).toBe('read-model format 2');
    expect(formatLine(1, 2, null, now)).toBe("read-model format 1; older than this code's 2: the next projector to start rebuilds it");
    expect(formatLine(3, 2, null, now)).toBe("read-model format 3, newer than this code's 2: this projector would refuse it");
  });

  it('names the instance that upgrades it and when it was last heard of', () => {
    const claim = { format: 2, from: 4, owner: 'projector-a', heartbeatAt: new Date(now - 3_000) };
    expect(formatLine(1, 2, claim, now)).toBe(
      'read-model format 1; projector-a is building its next generation in format 2 (heard of 3 s ago; progress on the rebuild line)',
    );
  });
});

describe('talliesLine', () => {
  it('says whether the API reads the tallies, and how to get them back when given up', () => {
    expect(talliesLine({ generation: 3, format: 4, talliesOf: 3 }, 4)).toMatch(/^tallies: kept/);
    expect(talliesLine({ generation: 3, format: 3, talliesOf: null }, 4)).toBe('tallies: none in format 3; the API counts the documents');
    expect(talliesLine({ generation: 3, format: 4, talliesOf: null }, 4)).toMatch(/given up .* until a rebuild/);
    expect(talliesLine({ generation: 4, format: 4, talliesOf: 3 }, 4)).toMatch(/given up/);
  });
});

describe('stalledPartitionLines', () => {
  it("names each stalled partition with its offset, its commit's age and its last error, as the running projector exports them", async () => {
    const registry = new Registry();
    const metrics = createProjectorMetrics(registry, Date.now, { stallAfterMs: 0 });
    metrics.partitions.working(1, '4711');
    metrics.partitions.failed(1, '4711', new Error('Document is larger than the maximum size {"a": "b"}'));
    metrics.partitions.working(2, '10');
    metrics.partitions.committed(3, '99', 0);
    const lines = stalledPartitionLines(parsePrometheusText(await registry.metrics()));
    expect(lines).toEqual([
      expect.stringMatching(
        /^ {2}partition 1 STALLED: not committed for 0 s at offset 4711; last error Error: Document is larger than the maximum size \{"a": "b"\}$/,
      ),
      expect.stringMatching(/^ {2}partition 2 STALLED: not committed for 0 s; no error/),
    ]);
    metrics.partitions.committed(1, '4711', 0);
    metrics.partitions.committed(2, '10', 0);
    expect(stalledPartitionLines(parsePrometheusText(await registry.metrics()))).toEqual(['  stalled partitions: none']);
  });
});
