import { describe, expect, it } from 'vitest';
import { StartRefused } from '../runMain.ts';
import { refuseReplayFromStart, retentionSettingProblems, startsPastCommitted, type TopicRetention } from './topicRetention.ts';

const settings = (entries: Record<string, string | null>): Map<string, string | null> => new Map(Object.entries(entries));
const keepsAll = { 'retention.ms': '-1', 'retention.bytes': '-1', 'cleanup.policy': 'delete' };

describe('retentionSettingProblems', () => {
  it('accepts unlimited time and size retention without compaction', () => {
    expect(retentionSettingProblems(settings(keepsAll))).toEqual([]);
  });

  it("names Kafka's default 7-day retention, a size limit, compaction and a value it could not read", () => {
    expect(retentionSettingProblems(settings({ ...keepsAll, 'retention.ms': '604800000' }))).toEqual([
      'retention.ms is 604800000, not -1: the broker deletes events past it',
    ]);
    expect(retentionSettingProblems(settings({ ...keepsAll, 'retention.bytes': '1073741824' }))).toHaveLength(1);
    expect(retentionSettingProblems(settings({ ...keepsAll, 'cleanup.policy': 'compact,delete' }))).toEqual([
      'cleanup.policy is compact,delete: compaction keeps only the last event of each aggregate',
    ]);
    expect(retentionSettingProblems(settings({ 'cleanup.policy': 'delete' }))).toEqual([
      'retention.ms is unknown, not -1: the broker deletes events past it',
      'retention.bytes is unknown, not -1: the broker deletes events past it',
    ]);
  });
});

const truncated: TopicRetention = {
  topic: 'events',
  settingProblems: [],
  droppedStarts: [
    { partition: 0, low: 3 },
    { partition: 2, low: 40 },
  ],
};

describe('startsPastCommitted', () => {
  it('names the partitions whose earliest offset is past where the group would resume (0 without a commit)', () => {
    expect(startsPastCommitted(truncated, new Map())).toEqual(truncated.droppedStarts);
    expect(
      startsPastCommitted(
        truncated,
        new Map([
          [0, 5],
          [1, 9],
          [2, 12],
        ]),
      ),
    ).toEqual([{ partition: 2, low: 40 }]);
    expect(startsPastCommitted(truncated, new Map([[0, -1]]))).toEqual(truncated.droppedStarts);
  });
});

describe('refuseReplayFromStart', () => {
  it('lets a complete topic through and refuses one that lost its start, naming where each partition starts', () => {
    expect(() => refuseReplayFromStart({ ...truncated, droppedStarts: [] }, 'rebuild')).not.toThrow();
    let refused: unknown;
    try {
      refuseReplayFromStart(truncated, 'rebuild');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(StartRefused);
    expect((refused as Error).message).toMatch(
      /^rebuild refused: the events topic events no longer holds its first events \(partition 0 starts at offset 3, partition 2 starts at offset 40\)/,
    );
  });
});
