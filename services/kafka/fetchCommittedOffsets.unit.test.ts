import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { fetchCommittedOffsets } from './fetchCommittedOffsets.ts';

/** An admin whose offset fetch fails with the given errors first, then answers. */
function adminFailingWith(errors: Error[]): { admin: Admin; calls: () => number } {
  let calls = 0;
  const admin = {
    fetchOffsets: () => {
      const error = errors[calls++];
      if (error) return Promise.reject(error);
      return Promise.resolve([
        {
          topic: 't',
          partitions: [
            { partition: 0, offset: '42' },
            { partition: 1, offset: '-1' },
          ],
        },
      ]);
    },
  } as unknown as Admin;
  return { admin, calls: () => calls };
}

const notCoordinator = Object.assign(new Error('This is not the correct coordinator for this group'), {
  type: 'NOT_COORDINATOR_FOR_GROUP',
});
const noWait = { sleep: () => Promise.resolve() };

describe('fetchCommittedOffsets', () => {
  it('retries a coordinator that is still loading or moved, then returns offsets by partition', async () => {
    const { admin, calls } = adminFailingWith([notCoordinator, Object.assign(new Error('loading'), { type: 'GROUP_LOAD_IN_PROGRESS' })]);
    expect(await fetchCommittedOffsets(admin, 'g', 't', noWait)).toEqual(
      new Map([
        [0, 42],
        [1, -1],
      ]),
    );
    expect(calls()).toBe(3);
  });

  it('gives up after the bounded number of attempts with the broker error', async () => {
    const { admin, calls } = adminFailingWith(Array<Error>(5).fill(notCoordinator));
    await expect(fetchCommittedOffsets(admin, 'g', 't', { ...noWait, attempts: 3 })).rejects.toBe(notCoordinator);
    expect(calls()).toBe(3);
  });

  it('does not retry other errors', async () => {
    const other = Object.assign(new Error('denied'), { type: 'GROUP_AUTHORIZATION_FAILED' });
    const { admin, calls } = adminFailingWith([other]);
    await expect(fetchCommittedOffsets(admin, 'g', 't', noWait)).rejects.toBe(other);
    expect(calls()).toBe(1);
  });
});
