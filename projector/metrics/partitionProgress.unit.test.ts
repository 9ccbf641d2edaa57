import { describe, expect, it } from 'vitest';
import { PartitionProgress } from './partitionProgress.ts';

describe('PartitionProgress', () => {
  it('reports a partition stalled once it has had work and no commit for the stall time, with its last error', () => {
    const clock = { now: 0 };
    const progress = new PartitionProgress(() => clock.now, 60_000);
    progress.working(1, '100');
    progress.working(2, '7');
    clock.now = 59_999;
    expect(progress.stalled()).toEqual([]);
    progress.committed(2, '50', 3);
    progress.failed(1, '100', new TypeError('x'.repeat(500)));
    clock.now = 60_000;
    const [stalled, ...others] = progress.stalled();
    expect(others).toEqual([]);
    expect(stalled).toMatchObject({ partition: 1, offset: '100', ageSeconds: 60 });
    expect(stalled!.lastError).toMatch(/^TypeError: x+…$/);
    expect(stalled!.lastError!.length).toBeLessThanOrEqual(201);
    expect(progress.partitions().map((p) => [p.partition, p.offset, p.ageSeconds])).toEqual([
      [1, '100', 60],
      [2, '51', 0.001],
    ]);
  });

  it('forgets a partition once it has caught up, or is consumed elsewhere', () => {
    const clock = { now: 0 };
    const progress = new PartitionProgress(() => clock.now, 1_000);
    progress.working(1, '1');
    progress.working(2, '1');
    progress.failed(3, '9', new Error('down'));
    clock.now = 5_000;
    expect(progress.stalled().map((p) => p.partition)).toEqual([1, 2, 3]);
    progress.committed(1, '1', 0);
    progress.keepOnly(new Set([1, 3]));
    expect(progress.stalled().map((p) => p.partition)).toEqual([3]);
    progress.committed(3, '20', 5);
    expect(progress.stalled()).toEqual([]);
    expect(progress.partitions()).toEqual([{ partition: 3, offset: '21', ageSeconds: 0, lastError: null }]);
  });
});
