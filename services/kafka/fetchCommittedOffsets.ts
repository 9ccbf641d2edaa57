import type { Admin } from 'kafkajs';

/** Coordinator answers a broker gives while it is still loading or moving a group's offsets. */
const COORDINATOR_PENDING = new Set(['NOT_COORDINATOR_FOR_GROUP', 'GROUP_LOAD_IN_PROGRESS', 'GROUP_COORDINATOR_NOT_AVAILABLE']);

/**
 * The group's committed offsets on one topic, by partition (-1 where it never committed).
 * kafkajs's `admin.fetchOffsets` does not retry: on a fresh broker the first offset fetch often
 * meets a coordinator still loading `__consumer_offsets` ("This is not the correct coordinator
 * for this group"), which Kafka marks retriable. So we retry those answers, with a bounded wait.
 */
export async function fetchCommittedOffsets(
  admin: Admin,
  groupId: string,
  topic: string,
  { attempts = 12, firstDelayMs = 100, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) } = {},
): Promise<Map<number, number>> {
  for (let attempt = 1; ; attempt++) {
    try {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      return new Map((offsets?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    } catch (error) {
      if (attempt >= attempts || !isCoordinatorPending(error)) throw error;
      await sleep(Math.min(firstDelayMs * 2 ** (attempt - 1), 2_000));
    }
  }
}

function isCoordinatorPending(error: unknown): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' && COORDINATOR_PENDING.has(type);
}
