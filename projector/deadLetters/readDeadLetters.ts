import type { Kafka } from 'kafkajs';
import { readDeadLetterEntry, type DeadLetterEntry } from './deadLetterEntry.ts';

export interface ReadOptions {
  /** A consumer group of its own, deleted afterwards: nothing is committed, reading changes nothing. */
  groupId: string;
  /** Which entries keep their original value (a republish needs the chosen ones only). */
  keepValue?: (entry: DeadLetterEntry) => boolean;
  /** Gives up on a partition that sends nothing for this long (its end is never reached if records were removed). */
  idleMs?: number;
  /** Hears how many of how many messages have been read so far, as the read goes on. */
  onProgress?: (read: number, total: number) => void;
}

/** Every message the dead-letter topic holds now, in order per partition; none when it does not exist. */
export async function readDeadLetters(kafka: Kafka, dlqTopic: string, opts: ReadOptions): Promise<DeadLetterEntry[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(dlqTopic)) return [];
    const ends = await admin.fetchTopicOffsets(dlqTopic);
    const remaining = new Map(ends.filter((p) => BigInt(p.high) > BigInt(p.low)).map((p) => [p.partition, BigInt(p.high)]));
    if (remaining.size === 0) return [];
    const total = ends.reduce((n, p) => n + Number(BigInt(p.high) - BigInt(p.low)), 0);
    let read = 0;
    const entries: DeadLetterEntry[] = [];
    const consumer = kafka.consumer({ groupId: opts.groupId, allowAutoTopicCreation: false });
    const idleMs = opts.idleMs ?? 30_000;
    let idle: NodeJS.Timeout | undefined;
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: dlqTopic, fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const waitIdle = (): void => {
          clearTimeout(idle);
          idle = setTimeout(() => reject(new Error(`no dead letter arrived for ${idleMs} ms before the end of ${dlqTopic}`)), idleMs);
        };
        waitIdle();
        consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
        consumer
          .run({
            autoCommit: false,
            eachMessage: ({ partition, message }) => {
              waitIdle();
              const end = remaining.get(partition);
              if (end === undefined) return Promise.resolve();
              opts.onProgress?.(++read, total);
              if (BigInt(message.offset) < end) {
                const entry = readDeadLetterEntry(partition, message, false);
                entries.push(opts.keepValue?.(entry) ? readDeadLetterEntry(partition, message, true) : entry);
              }
              if (BigInt(message.offset) + 1n >= end) remaining.delete(partition);
              if (remaining.size === 0) resolve();
              return Promise.resolve();
            },
          })
          .catch(reject);
      });
    } finally {
      clearTimeout(idle);
      await consumer.disconnect();
      await admin.deleteGroups([opts.groupId]).catch(() => undefined);
    }
    return entries;
  } finally {
    await admin.disconnect();
  }
}
