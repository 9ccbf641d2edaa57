import { describe, expect, it } from 'vitest';
import type { DeadLetter } from './deadLetter.ts';
import { deadLetterBytes, deadLetterSends } from './sendDeadLetters.ts';

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
});
