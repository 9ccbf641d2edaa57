import { Partitioners, type Message } from 'kafkajs';
import { pino } from 'pino';
import type { KafkaSecurity } from '../services/config/index.ts';
import type { DomainEvent } from '../services/events/index.ts';
import { createKafka, ensureTopics } from '../services/kafka/index.ts';
import type { Logger } from '../services/logger.ts';

export interface PublishOptions {
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly events: Iterable<DomainEvent> | AsyncIterable<DomainEvent>;
  /** Partitions of the topic when it has to be created. Default 6. */
  readonly partitions?: number;
  /** Messages per produce request. Default 5,000. */
  readonly batchSize?: number;
  readonly clientId?: string;
  /** TLS and SASL, as configured (config.kafka.security); default plaintext. */
  readonly security?: KafkaSecurity;
  /** kafkajs' own log lines; default: warnings and errors as JSON on stderr. */
  readonly logger?: Logger;
  /** Called after each acknowledged batch with the number of events published so far. */
  readonly onProgress?: (published: number) => void;
}

export interface PublishResult {
  readonly published: number;
  /** True when the topic did not exist and was created. */
  readonly createdTopic: boolean;
}

/** The message the write side would produce: key = aggregateId, so an aggregate keeps one partition. */
export function toKafkaMessage(event: DomainEvent): Message {
  return { key: event.aggregateId, value: JSON.stringify(event) };
}

/**
 * Publishes events to `topic` in batches, creating the topic first when it is missing. Each
 * batch is acknowledged by all in-sync replicas (acks -1) before the next is sent, so events of
 * one aggregate land in their partition in order even when a request is retried; the next batch
 * is serialised while the previous one is in flight.
 */
export async function publishHistory(options: PublishOptions): Promise<PublishResult> {
  const logger = options.logger ?? pino({ name: 'generator', level: 'warn' }, pino.destination(2));
  const batchSize = options.batchSize ?? 5000;
  const kafka = createKafka({
    clientId: options.clientId ?? 'history-generator',
    brokers: options.brokers,
    ...(options.security ? { security: options.security } : {}),
    logger,
  });
  const admin = kafka.admin();
  // The default partitioner (murmur2 of the key, as the Java client) named explicitly, which
  // also silences kafkajs' notice that its default changed in v2.
  const producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  await admin.connect();
  try {
    const created = await ensureTopics(admin, [{ topic: options.topic, numPartitions: options.partitions ?? 6 }]);
    await producer.connect();
    let published = 0;
    let inFlight: Promise<void> = Promise.resolve();
    let batch: Message[] = [];
    const send = async (messages: Message[]): Promise<void> => {
      await inFlight;
      // Compression stays off (the kafkajs default): the benchmark measures the pipeline, not gzip.
      const request = producer.send({ topic: options.topic, acks: -1, messages }).then(() => {
        published += messages.length;
        options.onProgress?.(published);
      });
      // Marked as handled now; the failure still surfaces at the next `await inFlight`.
      request.catch(() => undefined);
      inFlight = request;
    };
    for await (const event of options.events) {
      batch.push(toKafkaMessage(event));
      if (batch.length >= batchSize) {
        await send(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await send(batch);
    await inFlight;
    return { published, createdTopic: created.length > 0 };
  } finally {
    await producer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}
