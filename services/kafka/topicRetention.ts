import kafkajs, { type Admin, type IResourceConfigEntry } from 'kafkajs';
import { StartRefused } from '../runMain.ts';

/**
 * A rebuild and the bootstrap of an empty read model replay the events topic from offset 0, so
 * the topic must keep every event it was ever given: no time or size limit, and no compaction
 * (which keeps only the last message of each key, dropping earlier events of an aggregate while
 * offset 0 stays in place, so the offsets alone would not show it).
 */
export const KEEP_EVERYTHING: readonly IResourceConfigEntry[] = [
  { name: 'retention.ms', value: '-1' },
  { name: 'retention.bytes', value: '-1' },
  { name: 'cleanup.policy', value: 'delete' },
];

export interface PartitionStart {
  partition: number;
  /** The earliest offset the partition still holds. */
  low: number;
}

export interface TopicRetention {
  topic: string;
  /** Each setting that lets the broker delete events, as a sentence; empty when it keeps everything. */
  settingProblems: string[];
  /** Partitions whose earliest offset is not 0: their first events are gone. */
  droppedStarts: PartitionStart[];
}

/** What in a topic's settings lets the broker delete events (pure; the values as describeConfigs gives them). */
export function retentionSettingProblems(settings: ReadonlyMap<string, string | null>): string[] {
  const problems: string[] = [];
  for (const name of ['retention.ms', 'retention.bytes']) {
    const value = settings.get(name);
    if (value !== '-1') problems.push(`${name} is ${value ?? 'unknown'}, not -1: the broker deletes events past it`);
  }
  const policy = settings.get('cleanup.policy') ?? 'unknown';
  if (policy.split(',').some((p) => p.trim() === 'compact'))
    problems.push(`cleanup.policy is ${policy}: compaction keeps only the last event of each aggregate`);
  return problems;
}

/** The topic's retention settings and the partitions that no longer start at offset 0. */
export async function readTopicRetention(admin: Admin, topic: string): Promise<TopicRetention> {
  const [described, offsets] = await Promise.all([
    admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: kafkajs.ConfigResourceTypes.TOPIC, name: topic, configNames: KEEP_EVERYTHING.map((e) => e.name) }],
    }),
    admin.fetchTopicOffsets(topic),
  ]);
  const entries = described.resources[0]?.configEntries ?? [];
  return {
    topic,
    settingProblems: retentionSettingProblems(new Map(entries.map((e) => [e.configName, e.configValue]))),
    droppedStarts: offsets
      .map((p) => ({ partition: p.partition, low: Number(p.low) }))
      .filter((p) => p.low > 0)
      .sort((a, b) => a.partition - b.partition),
  };
}

/**
 * Partitions a consumer would start past events it never read: the earliest offset is above the
 * group's committed one (0 where it has none, as for a new group, which a rebuild uses).
 */
export function startsPastCommitted(retention: TopicRetention, committed: ReadonlyMap<number, number>): PartitionStart[] {
  return retention.droppedStarts.filter((p) => p.low > Math.max(0, committed.get(p.partition) ?? 0));
}

/** One line naming where each partition now starts. */
export function describeStarts(starts: readonly PartitionStart[]): string {
  return starts.map((p) => `partition ${p.partition} starts at offset ${p.low}`).join(', ');
}

/**
 * Stops a replay from offset 0 (a rebuild, the first projection of an empty read model) of a
 * topic that has lost its first events: the read model built from the rest would lack them
 * without any sign of it.
 */
export function refuseReplayFromStart(retention: TopicRetention, what: string): void {
  if (retention.droppedStarts.length === 0) return;
  throw new StartRefused(
    `${what} refused: the events topic ${retention.topic} no longer holds its first events (${describeStarts(retention.droppedStarts)}), ` +
      'so a read model replayed from it would silently miss them. Republish the full event history to a topic that keeps ' +
      'everything (retention.ms=-1, retention.bytes=-1, cleanup.policy=delete) and point KAFKA_TOPIC at it; see docs/operating.md, "Retention".',
  );
}
