import type { IHeaders, KafkaMessage } from 'kafkajs';

/** Where an event sat in the events topic before the projector dead-lettered it. */
export interface SourcePosition {
  partition: number;
  offset: string;
}

/** One message of the dead-letter topic, read back: why, from where, and the original bytes. */
export interface DeadLetterEntry {
  dlq: { partition: number; offset: string };
  source: { topic: string | null } & SourcePosition;
  reason: string;
  /** When the projector dead-lettered it (ISO 8601), as it recorded. */
  at: string | null;
  key: string | null;
  /** Bytes of the original value. */
  size: number;
  /**
   * False for a letter too large for the dead-letter topic, sent as its coordinates only
   * (projector/consume/sendDeadLetters.ts): the original stays in the events topic.
   */
  carriesEvent: boolean;
  /** The original key and value bytes, only for the entries the caller asked to keep (a republish). */
  original?: { key: Buffer | null; value: Buffer | null };
  /** The original message's own headers, without the dead-letter ones. */
  headers: IHeaders;
}

const DLQ_HEADER = /^dlq-/;

function headerText(value: IHeaders[string]): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? null : first.toString();
}

/**
 * Reads a dead-letter message (headers as projector/consume/deadLetter.ts writes them). A
 * message without those headers, which something else wrote there, is still listed, with
 * what it lacks shown as unknown, rather than hidden.
 */
export function readDeadLetterEntry(partition: number, message: KafkaMessage, keepValue: boolean): DeadLetterEntry {
  const headers = message.headers ?? {};
  const own: IHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!DLQ_HEADER.test(name)) own[name] = value;
  const sourcePartition = Number(headerText(headers['dlq-source-partition']) ?? Number.NaN);
  const omitted = headerText(headers['dlq-value-omitted']) === 'true';
  return {
    dlq: { partition, offset: message.offset },
    source: {
      topic: headerText(headers['dlq-source-topic']),
      partition: Number.isInteger(sourcePartition) ? sourcePartition : -1,
      offset: headerText(headers['dlq-source-offset']) ?? '-1',
    },
    reason: headerText(headers['dlq-reason']) ?? 'unknown (no dlq-reason header)',
    at: headerText(headers['dlq-at']),
    key: message.key?.toString() ?? null,
    size: omitted ? Number(headerText(headers['dlq-value-bytes']) ?? 0) : (message.value?.length ?? 0),
    carriesEvent: !omitted && message.value !== null,
    ...(keepValue ? { original: { key: message.key, value: message.value } } : {}),
    headers: own,
  };
}

export const sourceLabel = (source: SourcePosition): string => `${source.partition}:${source.offset}`;

/** `3:1200` (partition:offset in the events topic) as a position; null when it is not one. */
export function parseSourcePosition(text: string): SourcePosition | null {
  const match = /^(\d{1,9}):(\d{1,19})$/.exec(text.trim());
  return match ? { partition: Number(match[1]), offset: BigInt(match[2]!).toString() } : null;
}

/** A dead letter per source message, the latest copy: a rebuild's replay dead-letters an invalid event again. */
export interface DeadLetterGroup {
  latest: DeadLetterEntry;
  copies: number;
}

export function groupBySource(entries: readonly DeadLetterEntry[]): DeadLetterGroup[] {
  const groups = new Map<string, DeadLetterGroup>();
  for (const entry of entries) {
    const key = `${entry.source.topic ?? ''}\u0000${sourceLabel(entry.source)}`;
    const group = groups.get(key);
    if (!group) groups.set(key, { latest: entry, copies: 1 });
    else {
      group.copies += 1;
      if ((entry.at ?? '') >= (group.latest.at ?? '')) group.latest = entry;
    }
  }
  return [...groups.values()].sort(
    (a, b) => a.latest.source.partition - b.latest.source.partition || compareOffsets(a.latest.source.offset, b.latest.source.offset),
  );
}

const compareOffsets = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
