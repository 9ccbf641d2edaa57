import type { KafkaMessage } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { deadLetter } from '../consume/deadLetter.ts';
import { coordinatesOnly } from '../consume/sendDeadLetters.ts';
import { chooseDeadLetters, isWanted } from './chooseDeadLetters.ts';
import { groupBySource, parseSourcePosition, readDeadLetterEntry, type DeadLetterEntry } from './deadLetterEntry.ts';
import { describeDeadLetters } from './describeDeadLetters.ts';

/** A dead letter as the projector writes it, read back from the dead-letter topic at `dlqOffset`. */
function written(
  source: { partition: number; offset: string },
  reason: string,
  at: string,
  dlqOffset: string,
  keep = false,
): DeadLetterEntry {
  const original = {
    key: Buffer.from('dancer-1'),
    value: Buffer.from('{"eventId": oops'),
    offset: source.offset,
    headers: { trace: 'abc' },
  };
  const letter = deadLetter(original as unknown as KafkaMessage, { topic: 'events', partition: source.partition }, reason, new Date(at));
  return readDeadLetterEntry(0, { ...letter, offset: dlqOffset } as unknown as KafkaMessage, keep);
}

describe('reading a dead letter back', () => {
  it('takes its reason and source from the headers the projector writes, and keeps the original headers apart', () => {
    const entry = written({ partition: 3, offset: '1200' }, 'not JSON', '2026-11-23T12:00:00.000Z', '7', true);
    expect(entry).toEqual({
      dlq: { partition: 0, offset: '7' },
      source: { topic: 'events', partition: 3, offset: '1200' },
      reason: 'not JSON',
      at: '2026-11-23T12:00:00.000Z',
      key: 'dancer-1',
      size: 16,
      carriesEvent: true,
      original: { key: Buffer.from('dancer-1'), value: Buffer.from('{"eventId": oops') },
      headers: { trace: 'abc' },
    });
    expect(written({ partition: 3, offset: '1200' }, 'x', '2026-11-23T12:00:00.000Z', '7').original).toBeUndefined();
  });

  it('lists a message without dead-letter headers instead of hiding it', () => {
    const entry = readDeadLetterEntry(
      1,
      { key: null, value: Buffer.from('x'), offset: '4', headers: {} } as unknown as KafkaMessage,
      false,
    );
    expect(entry.source).toEqual({ topic: null, partition: -1, offset: '-1' });
    expect(entry.reason).toBe('unknown (no dlq-reason header)');
  });

  it('parses positions <partition>:<offset> and nothing else', () => {
    expect(parseSourcePosition('3:1200')).toEqual({ partition: 3, offset: '1200' });
    expect(parseSourcePosition(' 0:007 ')).toEqual({ partition: 0, offset: '7' });
    for (const bad of ['3', '3:', ':5', '-1:5', '3:5:1', 'a:b', '3:1e3']) expect(parseSourcePosition(bad)).toBeNull();
  });
});

describe('grouping, choosing and listing', () => {
  // The live projector dead-lettered 3:1200, a rebuild's replay did it again later; 1:5 once.
  const entries = [
    written({ partition: 3, offset: '1200' }, 'old reason', '2026-11-23T12:00:00.000Z', '0', true),
    written({ partition: 1, offset: '5' }, 'bad schema', '2026-11-23T12:01:00.000Z', '1', true),
    written({ partition: 3, offset: '1200' }, 'unknown type x', '2026-11-24T08:00:00.000Z', '2', true),
  ];

  it('keeps one dead letter per source message, the latest copy, ordered by position', () => {
    const groups = groupBySource(entries);
    expect(groups.map((g) => [g.latest.source.partition, g.latest.source.offset, g.latest.reason, g.copies])).toEqual([
      [1, '5', 'bad schema', 1],
      [3, '1200', 'unknown type x', 2],
    ]);
  });

  it('chooses the named positions of the events topic, or all, and names positions nothing came from', () => {
    const groups = groupBySource(entries);
    const named = chooseDeadLetters(groups, 'events', [
      { partition: 3, offset: '1200' },
      { partition: 3, offset: '1200' },
      { partition: 2, offset: '9' },
    ]);
    expect(named.chosen.map((e) => e.dlq.offset)).toEqual(['2']);
    expect(named.unknown).toEqual([{ partition: 2, offset: '9' }]);
    expect(chooseDeadLetters(groups, 'events', 'all').chosen).toHaveLength(2);
    expect(chooseDeadLetters(groups, 'other-topic', 'all').chosen).toEqual([]);
    expect(isWanted(entries[1]!, 'events', [{ partition: 1, offset: '5' }])).toBe(true);
    expect(isWanted(entries[1]!, 'events', [{ partition: 1, offset: '6' }])).toBe(false);
  });

  it('sets apart a dead letter too large for the dead-letter topic, sent as its coordinates only', () => {
    const original = { key: Buffer.from('dancer-1'), value: Buffer.alloc(2_000_000, 'x'), offset: '42', headers: {} };
    const letter = deadLetter(original as unknown as KafkaMessage, { topic: 'events', partition: 2 }, 'not JSON', new Date());
    const sent = coordinatesOnly(letter, 2_000_123);
    const entry = readDeadLetterEntry(0, { ...sent, offset: '9' } as unknown as KafkaMessage, true);
    expect(entry).toMatchObject({
      source: { topic: 'events', partition: 2, offset: '42' },
      reason: 'not JSON',
      size: 2_000_123,
      carriesEvent: false,
    });
    const choice = chooseDeadLetters(groupBySource([entry]), 'events', 'all');
    expect(choice.chosen).toEqual([]);
    expect(choice.withoutValue).toEqual([entry]);
    expect(describeDeadLetters(groupBySource([entry]), 'events.dlq')[1]).toContain(
      '2000123 bytes, not kept (too large; the original stays in the topic)',
    );
  });

  it('lists each with its position, time, key, size and reason, and says how to republish', () => {
    const lines = describeDeadLetters(groupBySource(entries), 'events.dlq');
    expect(lines).toEqual([
      '2 dead letters in events.dlq (and 1 more copy of them, dead-lettered again by a rebuild or a restart)',
      'events 1:5  2026-11-23T12:01:00.000Z  key dancer-1  16 bytes',
      '    bad schema',
      'events 3:1200  2026-11-24T08:00:00.000Z  key dancer-1  16 bytes  (2 copies)',
      '    unknown type x',
      "A producer's mistake stays here as the record; once a fixed projector can fold the others, republish them: npm run dead-letters -- republish <partition>:<offset> ... (or --all)",
    ]);
    expect(describeDeadLetters([], 'events.dlq')).toEqual(['no dead letters in events.dlq']);
  });
});
