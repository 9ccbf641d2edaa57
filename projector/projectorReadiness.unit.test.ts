import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { PartitionProgress } from './metrics/partitionProgress.ts';
import { projectorReadiness } from './projectorReadiness.ts';

const admin = { describeCluster: () => Promise.resolve({ brokers: [{ nodeId: 1 }] }) } as unknown as Admin;
const mongo = { ping: () => Promise.resolve(true) };
const projector = { isRunning: () => true };

describe('projectorReadiness', () => {
  it('is not ready while a partition has gone the stall time without a commit, and names it', async () => {
    const clock = { now: 0 };
    const partitions = new PartitionProgress(() => clock.now, 60_000);
    const readiness = projectorReadiness({ mongo, admin, projector, partitions });
    partitions.working(4, '120');
    partitions.working(5, '9');
    expect(await readiness()).toEqual({ ready: true, checks: { mongo: true, kafka: true, consumer: true, partitions: true } });
    clock.now = 30_000;
    partitions.committed(5, '9', 2);
    clock.now = 61_000;
    expect(await readiness()).toEqual({
      ready: false,
      checks: { mongo: true, kafka: true, consumer: true, partitions: false, 'partition 4': false },
    });
    partitions.committed(4, '200', 0);
    expect((await readiness()).ready).toBe(true);
  });
});
