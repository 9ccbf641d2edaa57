import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { DeadLetter } from './deadLetter.ts';
import { deadLetterBytes, deadLetterSends } from './sendDeadLetters.ts';

// kafkajs's own encoders of a record batch (format v2), as its producer builds the bytes the broker checks.
const require = createRequire(import.meta.url);
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as {
  RecordBatch: (batch: { records: unknown[]; firstTimestamp: number; maxTimestamp: number }) => Promise<{ buffer: Buffer }>;
};
const Record = require('kafkajs/src/protocol/recordBatch/record/v0') as (record: object) => unknown;

/** The bytes of the record batch one send of `letters` puts on the wire, timestamps spread as far as a varlong goes. */
async function encodedBatchBytes(letters: readonly DeadLetter[]): Promise<number> {
  const records = letters.map((letter, i) =>
    Record({ offsetDelta: i, timestampDelta: 2 ** 40 + i, key: letter.key, value: letter.value, headers: letter.headers }),
  );
  const batch = await RecordBatch({ records, firstTimestamp: 0, maxTimestamp: 2 ** 40 + letters.length });
  // The batch less its base offset and length, which Kafka counts in its size too: the whole buffer.
  return batch.buffer.length;
}

const letter = (offset: number, valueBytes: number, key = 'one-key'): DeadLetter => ({
  key: Buffer.from(key),
  value: Buffer.alloc(valueBytes, 0x7b),
  headers: {
    'dlq-reason': 'message value is not JSON',
    'dlq-source-topic': 'events',
    'dlq-source-partition': '4',
    'dlq-source-offset': String(offset),
    'dlq-at': '2026-01-01T00:00:00.000Z',
  },
});

describe('deadLetterSends', () => {
  it('never groups letters past the limit, and keeps their order', () => {
    const letters = [letter(1, 600_000), letter(2, 600_000), letter(3, 100), letter(4, 300_000)];
    const sends = deadLetterSends(letters, 1_000_000);
    expect(sends.map((send) => send.map((l) => l.headers['dlq-source-offset']))).toEqual([['1'], ['2', '3', '4']]);
    for (const send of sends) expect(send.reduce((n, l) => n + deadLetterBytes(l), 0)).toBeLessThanOrEqual(1_000_000);
  });

  it('sends a letter past the limit as its coordinates, size and reason, without the value', () => {
    const [[sent]] = deadLetterSends([letter(7, 2_000_000, 'k'.repeat(5_000))], 1_000_000) as [[DeadLetter]];
    expect(deadLetterBytes(sent)).toBeLessThan(2_000);
    expect(sent.key).toBeNull();
    expect(sent.headers['dlq-value-omitted']).toBe('true');
    expect(JSON.parse(sent.value!.toString())).toMatchObject({
      topic: 'events',
      partition: 4,
      offset: '7',
      key: null,
      reason: 'message value is not JSON',
      bytes: deadLetterBytes(letter(7, 2_000_000, 'k'.repeat(5_000))),
    });
  });

  it("counts each record's framing, so thousands of small letters of one key never make a send past the limit", async () => {
    const letters = Array.from({ length: 7_000 }, (_, i) => letter(i, 2, 'k'));
    const sends = deadLetterSends(letters, 1_000_000);
    expect(sends.flat()).toHaveLength(letters.length);
    expect(sends.length).toBeGreaterThan(1);
    for (const send of sends) expect(await encodedBatchBytes(send)).toBeLessThanOrEqual(1_000_000);
    // Their bytes alone would have fitted one send: the framing is what the old estimate left out.
    const bare = letters.reduce(
      (n, l) => n + l.key!.length + l.value!.length + Object.entries(l.headers).reduce((m, [k, v]) => m + k.length + String(v).length, 0),
      0,
    );
    expect(bare).toBeLessThan(1_000_000);
    expect(await encodedBatchBytes(letters)).toBeGreaterThan(1_000_000);
  });
});
