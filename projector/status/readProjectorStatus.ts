import type { Admin } from 'kafkajs';
import type { Db } from 'mongodb';
import { countTopicMessages, fetchCommittedOffsets } from '../../services/kafka/index.ts';
import { readMeta } from '../../services/mongo/index.ts';
import { liveGroupId } from '../consume/liveGroupId.ts';

export interface PartitionLag {
  partition: number;
  end: number;
  committed: number | null;
  lag: number;
}

export interface ProjectorStatus {
  generation: number;
  group: string;
  partitions: PartitionLag[];
  totalLag: number;
  deadLetters: number;
  topicExists: boolean;
}

/** Lag as Kafka itself sees it: the live group's committed offsets against the topic's end. */
export async function readProjectorStatus(opts: {
  admin: Admin;
  db: Db;
  topic: string;
  dlqTopic: string;
  groupId: string;
}): Promise<ProjectorStatus> {
  const { generation } = await readMeta(opts.db);
  const group = liveGroupId(opts.groupId, generation);
  const topics = new Set(await opts.admin.listTopics());
  if (!topics.has(opts.topic)) return { generation, group, partitions: [], totalLag: 0, deadLetters: 0, topicExists: false };
  const [ends, committedBy, deadLetters] = await Promise.all([
    opts.admin.fetchTopicOffsets(opts.topic),
    fetchCommittedOffsets(opts.admin, group, opts.topic),
    countTopicMessages(opts.admin, opts.dlqTopic),
  ]);
  const partitions = ends
    .map((p) => {
      const end = Number(p.high);
      const low = Number(p.low);
      const done = committedBy.get(p.partition);
      // -1 means the group never committed on this partition: everything from the start is due.
      const position = done === undefined || done < 0 ? low : done;
      return { partition: p.partition, end, committed: done === undefined || done < 0 ? null : done, lag: Math.max(0, end - position) };
    })
    .sort((a, b) => a.partition - b.partition);
  return {
    generation,
    group,
    partitions,
    totalLag: partitions.reduce((n, p) => n + p.lag, 0),
    deadLetters,
    topicExists: true,
  };
}

/** The samples of a Prometheus text exposition, by metric name (labels kept as text). */
export function parsePrometheusText(text: string): Map<string, { labels: string; value: number }[]> {
  const samples = new Map<string, { labels: string; value: number }[]>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
    if (!name) continue;
    const labelsEnd = line[name.length] === '{' ? closingBrace(line, name.length) : name.length;
    if (labelsEnd < 0) continue;
    const value = /^\s+(\S+)/.exec(line.slice(labelsEnd))?.[1];
    if (value === undefined) continue;
    const list = samples.get(name) ?? [];
    list.push({ labels: line.slice(name.length, labelsEnd), value: Number(value) });
    samples.set(name, list);
  }
  return samples;
}

/** The index after the `}` that closes the label set opened at `open`, skipping quoted values; -1 if none. */
function closingBrace(line: string, open: number): number {
  let quoted = false;
  for (let i = open + 1; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === '}') return i + 1;
  }
  return -1;
}

/** The label set `{a="x",b="y \"z\""}` of a sample as a record, its escapes undone. */
export function parseLabels(labels: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of labels.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
    out[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return out;
}
