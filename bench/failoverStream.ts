import type { Kafka, Producer } from 'kafkajs';
import type { Db } from 'mongodb';
import { aggregateOf, type DomainEvent } from '../services/events/index.ts';
import { projectionCollections } from '../projector/write/projectionCollections.ts';
import type { Tracked } from './failoverFigures.ts';

interface Followed extends Tracked {
  kind: 'competition' | 'person' | 'club';
  aggregateId: string;
  version: number;
}

/** The partition of an aggregate: a stable hash of its id, so its events keep their order. */
function partitionOf(aggregateId: string, partitions: number): number {
  let hash = 2166136261;
  for (let i = 0; i < aggregateId.length; i++) hash = Math.imul(hash ^ aggregateId.charCodeAt(i), 16777619);
  return (hash >>> 0) % partitions;
}

/**
 * A producer at a steady rate and a poller that notes when each event shows in the database:
 * an event is visible once its aggregate's stored state has reached its version. The projector
 * writes that state in the same step as the aggregate's read documents, and commits the offset
 * only after both are durable.
 */
export class SteadyStream {
  readonly sent: DomainEvent[] = [];
  private readonly followed: Followed[] = [];
  private pending: Followed[] = [];
  private readonly producer: Producer;
  private running = false;
  private closed = false;
  private loops: Promise<void>[] = [];

  private readonly db: Db;
  private readonly topic: string;
  private readonly partitions: number;
  private readonly rate: number;
  private readonly source: Iterator<DomainEvent>;

  constructor(kafka: Kafka, db: Db, topic: string, partitions: number, rate: number, source: Iterator<DomainEvent>) {
    this.db = db;
    this.topic = topic;
    this.partitions = partitions;
    this.rate = rate;
    this.source = source;
    this.producer = kafka.producer({ allowAutoTopicCreation: false });
  }

  get events(): readonly Tracked[] {
    return this.followed;
  }

  async start(): Promise<void> {
    await this.producer.connect();
    this.running = true;
    this.loops = [this.produce(), this.poll()];
  }

  /** Stops producing; the poller goes on until `close`. */
  async stopProducing(): Promise<void> {
    this.running = false;
    await this.loops[0];
  }

  /** Waits until every event sent is visible, or `capMs` passed; resolves with how many are not. */
  async drain(capMs: number): Promise<number> {
    const deadline = performance.now() + capMs;
    while (this.pending.length > 0 && performance.now() < deadline) await sleep(100);
    return this.pending.length;
  }

  async close(): Promise<void> {
    this.running = false;
    this.closed = true;
    await Promise.all(this.loops);
    await this.producer.disconnect();
  }

  private async produce(): Promise<void> {
    const began = performance.now();
    let count = 0;
    while (this.running) {
      const due = Math.floor(((performance.now() - began) / 1000) * this.rate) - count;
      if (due > 0) {
        const sentAt = performance.now();
        const messages = [];
        for (let i = 0; i < due; i++) {
          const next = this.source.next();
          if (next.done) throw new Error('the generated history ran out; generate more events');
          const event = next.value;
          const partition = partitionOf(event.aggregateId, this.partitions);
          messages.push({ key: event.aggregateId, value: JSON.stringify(event), partition });
          this.sent.push(event);
          const f = { partition, sentAt, kind: aggregateOf(event.type), aggregateId: event.aggregateId, version: event.aggregateVersion };
          this.followed.push(f);
          this.pending.push(f);
        }
        await this.producer.send({ topic: this.topic, acks: -1, messages });
        count += due;
      }
      await sleep(20);
    }
  }

  private async poll(): Promise<void> {
    const names = projectionCollections(1).states;
    while (!this.closed) {
      const batch = this.pending.slice();
      if (batch.length > 0) {
        const seenAt = new Map<string, number>();
        for (const kind of ['competition', 'person', 'club'] as const) {
          const ids = [...new Set(batch.filter((f) => f.kind === kind).map((f) => f.aggregateId))];
          if (ids.length === 0) continue;
          const docs = await this.db
            .collection<{ _id: string; version: number }>(names[kind])
            .find({ _id: { $in: ids } }, { projection: { version: 1 } })
            .toArray();
          for (const d of docs) seenAt.set(d._id, d.version);
        }
        const now = performance.now();
        const still: Followed[] = [];
        for (const f of batch) {
          if ((seenAt.get(f.aggregateId) ?? 0) >= f.version) f.visibleAt = now;
          else still.push(f);
        }
        // Events sent while this poll ran were appended to `pending` after the ones it looked for.
        this.pending = [...still, ...this.pending.slice(batch.length)];
      }
      await sleep(25);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
