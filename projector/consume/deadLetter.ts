import type { IHeaders, KafkaMessage } from 'kafkajs';

export interface DeadLetter {
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
}

/**
 * The dead-letter copy of a message: the original key and bytes untouched, the reason and the
 * origin in headers, so the write side can read why and re-publish after a fix.
 */
export function deadLetter(message: KafkaMessage, origin: { topic: string; partition: number }, reason: string, at: Date): DeadLetter {
  // A reason may quote what the event holds; a header of a megabyte would make the letter itself too large.
  if (reason.length > MAX_REASON_CHARS) reason = `${reason.slice(0, MAX_REASON_CHARS)}…`;
  return {
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      'dlq-reason': reason,
      'dlq-source-topic': origin.topic,
      'dlq-source-partition': String(origin.partition),
      'dlq-source-offset': message.offset,
      'dlq-at': at.toISOString(),
    },
  };
}

const MAX_REASON_CHARS = 2_000;
