import { Partitioners, type IHeaders, type Kafka } from 'kafkajs';
import type { DeadLetterEntry } from './deadLetterEntry.ts';

export interface Republished {
  entry: DeadLetterEntry;
  partition: number;
}

/**
 * Sends dead letters back to the events topic, each to the partition it came from (its
 * aggregate's events stay in one partition, in order, whatever partitioner the write side used),
 * with its original key, bytes and headers, and a header naming the dead letter it was copied
 * from. The projector folds it like any event: applied if its version is new, ignored as a
 * duplicate if the aggregate's read model already holds that version or a later one.
 */
export async function republishDeadLetters(
  kafka: Kafka,
  topic: string,
  dlqTopic: string,
  entries: readonly DeadLetterEntry[],
): Promise<Republished[]> {
  if (entries.length === 0) return [];
  // Every message names its partition, so the partitioner never decides; naming one keeps kafkajs
  // from warning that its default changed.
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  try {
    await producer.send({
      topic,
      acks: -1,
      messages: entries.map((entry) => {
        if (!entry.original?.value) throw new Error(`dead letter ${entry.dlq.partition}:${entry.dlq.offset} carries no value`);
        const headers: IHeaders = { ...entry.headers, 'dlq-republished-from': `${dlqTopic}:${entry.dlq.partition}:${entry.dlq.offset}` };
        return { partition: entry.source.partition, key: entry.original.key, value: entry.original.value, headers };
      }),
    });
  } finally {
    await producer.disconnect();
  }
  return entries.map((entry) => ({ entry, partition: entry.source.partition }));
}
