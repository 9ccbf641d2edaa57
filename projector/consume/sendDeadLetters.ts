import type { IHeaders, Producer } from 'kafkajs';
import type { DeadLetter } from './deadLetter.ts';

/**
 * Bytes one send may carry. Kafka refuses a record batch past the topic's `max.message.bytes`
 * (1,048,588 by default), and a refused send would fail the chunk on every retry; the estimate
 * below counts every record's framing and the batch's, and the margin covers the request's.
 */
export const DEAD_LETTER_SEND_BYTES = 1_000_000;

/**
 * A record's framing in a record batch (format v2) at most: its length, offset delta, key length,
 * value length and header count as varints of up to 5 bytes, its timestamp delta as a varlong of
 * up to 10, its attributes byte. Thousands of small letters of one key were sent as one batch
 * past the limit when only their bytes were counted.
 */
export const RECORD_FRAMING_BYTES = 5 + 1 + 10 + 5 + 5 + 5 + 5;
/** Each header's key length and value length, as varints of up to 5 bytes. */
export const HEADER_FRAMING_BYTES = 5 + 5;
/** The batch's own header: base offset, length, leader epoch, magic, CRC, attributes, offsets, timestamps, producer id and epoch, sequence, count. */
export const BATCH_FRAMING_BYTES = 8 + 4 + 4 + 1 + 4 + 2 + 4 + 8 + 8 + 8 + 2 + 4 + 4;

/** A letter's bytes as the broker counts them in a record batch, its framing included (at most). */
export function deadLetterBytes(letter: DeadLetter): number {
  let bytes = RECORD_FRAMING_BYTES + (letter.key?.length ?? 0) + (letter.value?.length ?? 0);
  for (const [name, value] of Object.entries(letter.headers)) bytes += headerBytes(name, value);
  return bytes;
}

const headerBytes = (name: string, value: IHeaders[string]): number => {
  if (value === undefined) return 0;
  if (Array.isArray(value)) return value.reduce((n: number, v: string | Buffer) => n + headerBytes(name, v), 0);
  return HEADER_FRAMING_BYTES + Buffer.byteLength(name) + (Buffer.isBuffer(value) ? value.length : Buffer.byteLength(value));
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
  let currentBytes = BATCH_FRAMING_BYTES;
  for (const original of letters) {
    const size = deadLetterBytes(original);
    const letter = BATCH_FRAMING_BYTES + size > limit ? coordinatesOnly(original, size) : original;
    const bytes = letter === original ? size : deadLetterBytes(letter);
    if (current.length > 0 && currentBytes + bytes > limit) {
      sends.push(current);
      current = [];
      currentBytes = BATCH_FRAMING_BYTES;
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
