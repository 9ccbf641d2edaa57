import type { IHeaders, Producer } from 'kafkajs';
import type { DeadLetter } from './deadLetter.ts';

/**
 * Bytes one send may carry. Kafka refuses a record batch past the topic's `max.message.bytes`
 * (1,048,588 by default), and a refused send would fail the chunk on every retry; the margin
 * covers the batch's and each record's framing, which the estimate below leaves out.
 */
export const DEAD_LETTER_SEND_BYTES = 1_000_000;

/** A letter's bytes as the broker counts them, but for the framing. */
export function deadLetterBytes(letter: DeadLetter): number {
  let bytes = (letter.key?.length ?? 0) + (letter.value?.length ?? 0);
  for (const [name, value] of Object.entries(letter.headers)) bytes += Buffer.byteLength(name) + headerBytes(value);
  return bytes;
}

const headerBytes = (value: IHeaders[string]): number => {
  if (value === undefined) return 0;
  if (Array.isArray(value)) return value.reduce((n: number, v: string | Buffer) => n + headerBytes(v), 0);
  return Buffer.isBuffer(value) ? value.length : Buffer.byteLength(value);
};

/**
 * A dead letter too large to send whole: its coordinates, its size and the reason, without the
 * value (the original stays in the source topic at those coordinates). The key goes along only
 * while it is small, so the record itself is always small.
 */
export function coordinatesOnly(letter: DeadLetter, bytes: number): DeadLetter {
  const key = letter.key !== null && letter.key.length <= 1024 ? letter.key : null;
  const header = (name: string): string => String(letter.headers[name] ?? '');
  const record = {
    valueOmitted: 'larger than the dead-letter topic accepts',
    bytes,
    topic: header('dlq-source-topic'),
    partition: Number(header('dlq-source-partition')),
    offset: header('dlq-source-offset'),
    key: key?.toString('utf8') ?? null,
    reason: header('dlq-reason'),
  };
  const headers: Record<string, string> = { 'dlq-value-omitted': 'true', 'dlq-value-bytes': String(bytes) };
  for (const name of ['dlq-reason', 'dlq-source-topic', 'dlq-source-partition', 'dlq-source-offset', 'dlq-at'])
    headers[name] = header(name);
  return { key, value: Buffer.from(JSON.stringify(record)), headers };
}

/** Groups of letters, in order, none past `limit` bytes; a letter past it alone becomes its coordinates. */
export function deadLetterSends(letters: readonly DeadLetter[], limit = DEAD_LETTER_SEND_BYTES): DeadLetter[][] {
  const sends: DeadLetter[][] = [];
  let current: DeadLetter[] = [];
  let currentBytes = 0;
  for (const original of letters) {
    const size = deadLetterBytes(original);
    const letter = size > limit ? coordinatesOnly(original, size) : original;
    const bytes = size > limit ? deadLetterBytes(letter) : size;
    if (current.length > 0 && currentBytes + bytes > limit) {
      sends.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(letter);
    currentBytes += bytes;
  }
  if (current.length > 0) sends.push(current);
  return sends;
}

/** Sends the letters durably (acks from every in-sync replica), one bounded request at a time, in order. */
export async function sendDeadLetters(producer: Producer, topic: string, letters: readonly DeadLetter[]): Promise<void> {
  for (const messages of deadLetterSends(letters)) await producer.send({ topic, acks: -1, messages });
}
