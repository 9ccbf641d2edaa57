import type { Admin } from 'kafkajs';

/**
 * Creates the topics that are missing. Brokers here run with auto-creation off (as production
 * should), so the projector creates its own events and dead-letter topics on a fresh cluster.
 */
export async function ensureTopics(admin: Admin, topics: { topic: string; numPartitions: number }[]): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t.topic));
  if (missing.length === 0) return [];
  await admin.createTopics({ waitForLeaders: true, topics: missing.map((t) => ({ ...t, replicationFactor: -1 })) });
  return missing.map((t) => t.topic);
}
