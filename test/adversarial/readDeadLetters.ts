import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { expect } from 'vitest';
import { waitFor } from '../support/waitFor.ts';

/** The first `count` messages of a one-partition dead-letter topic, in offset order, read from its start by a group of its own. */
export async function readDeadLetters(
  kafka: Kafka,
  topic: string,
  groupId: string,
  count: number,
  timeoutMs = 60_000,
): Promise<KafkaMessage[]> {
  const consumer: Consumer = kafka.consumer({ groupId, maxBytesPerPartition: 4 * 1024 * 1024 });
  const seen: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: ({ message }) => Promise.resolve(void seen.push(message)) });
    await waitFor(() => Promise.resolve(expect(seen.length).toBeGreaterThanOrEqual(count)), timeoutMs, 250);
  } finally {
    await consumer.disconnect();
  }
  return seen.sort((a, b) => Number(BigInt(a.offset) - BigInt(b.offset))).slice(0, count);
}
