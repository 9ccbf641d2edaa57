import type { Admin } from 'kafkajs';
import { KEEP_EVERYTHING } from './topicRetention.ts';

/**
 * Creates the topics that are missing. Brokers here run with auto-creation off (as production
 * should), so the projector creates its own events and dead-letter topics on a fresh cluster.
 * They keep every message whatever the cluster's default retention (Kafka's is 7 days): a
 * rebuild replays the events topic from its start, and a dead letter is the only copy of why an
 * event was skipped.
 */
export async function ensureTopics(admin: Admin, topics: { topic: string; numPartitions: number }[]): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t.topic));
  if (missing.length === 0) return [];
  await admin.createTopics({
    waitForLeaders: true,
    topics: missing.map((t) => ({ ...t, replicationFactor: -1, configEntries: [...KEEP_EVERYTHING] })),
  });
  return missing.map((t) => t.topic);
}
