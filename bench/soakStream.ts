import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import type { Db } from 'mongodb';
import { toKafkaMessage } from '../generator/index.ts';
import { projectionCollections } from '../projector/write/projectionCollections.ts';
import { kindOf } from '../projector/write/foldEvents.ts';
import type { DomainEvent } from '../services/events/index.ts';
import { readMeta } from '../services/mongo/index.ts';
import { withFreshIds, type HostileMessage } from './soakHostileEvents.ts';

interface Followed {
  kind: 'competition' | 'person' | 'club';
  aggregateId: string;
  version: number;
  sentAt: number;
  visibleAt?: number;
}

export interface StreamFigures {
  ordinarySent: number;
  hostileSent: number;
  /** How long the half produced. */
  producingMs: number;
  /** Produce → visible of the ordinary events, in milliseconds; those never seen are left out and counted. */
  visibleMs: number[];
  notVisible: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The soak's event stream into the projector's topic: the ordinary history's next events at a
 * steady rate, and in the hostile half adversarial messages at their own steady rate (each with
 * new ids, so each is folded, one message per produce request since some are near the broker's
 * limit), keyed as the write side keys them. A poller notes when each ordinary event shows: its
 * aggregate's stored state has reached its version, which the projector writes in the step that
 * writes the aggregate's read documents.
 */
export class SoakStream {
  private readonly producer: Producer;
  private followed: Followed[] = [];
  private pending: Followed[] = [];
  private hostileSent = 0;
  private startedAt = 0;
  private producing: Promise<void> | undefined;
  private running = false;
  private polling: Promise<void> | undefined;
  private closed = false;
  private readonly db: Db;
  private readonly topic: string;
  private readonly source: Iterator<DomainEvent>;

  constructor(kafka: Kafka, db: Db, topic: string, source: Iterator<DomainEvent>) {
    this.db = db;
    this.topic = topic;
    this.source = source;
    this.producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  }

  async connect(): Promise<void> {
    await this.producer.connect();
    this.polling = this.poll();
  }

  /** Starts a half: `rate` ordinary events a second, and `hostile.rate` of `hostile.messages` (cycled). */
  start(rate: number, hostile?: { rate: number; messages: readonly HostileMessage[] }): void {
    this.followed = [];
    this.hostileSent = 0;
    this.startedAt = performance.now();
    this.running = true;
    this.producing = Promise.all([
      this.produceOrdinary(rate),
      hostile ? this.produceHostile(hostile.rate, hostile.messages) : undefined,
    ]).then(() => undefined);
  }

  /** Stops producing, waits until every ordinary event sent is visible or `capMs` passed, and gives the half's figures. */
  async finish(capMs: number): Promise<StreamFigures> {
    this.running = false;
    await this.producing;
    const producingMs = performance.now() - this.startedAt;
    const deadline = performance.now() + capMs;
    while (this.pending.length > 0 && performance.now() < deadline) await sleep(100);
    const visibleMs = this.followed.filter((f) => f.visibleAt !== undefined).map((f) => f.visibleAt! - f.sentAt);
    return {
      ordinarySent: this.followed.length,
      hostileSent: this.hostileSent,
      producingMs,
      visibleMs,
      notVisible: this.followed.length - visibleMs.length,
    };
  }

  async close(): Promise<void> {
    this.running = false;
    this.closed = true;
    await this.producing;
    await this.polling;
    await this.producer.disconnect();
  }

  private async produceOrdinary(rate: number): Promise<void> {
    const began = performance.now();
    let count = 0;
    while (this.running) {
      const due = Math.floor(((performance.now() - began) / 1000) * rate) - count;
      const events: DomainEvent[] = [];
      for (let i = 0; i < due; i++) {
        const next = this.source.next();
        if (next.done) throw new Error('the generated history ran out; give --stream-events more');
        events.push(next.value);
      }
      if (events.length > 0) {
        const sentAt = performance.now();
        await this.producer.send({ topic: this.topic, acks: -1, messages: events.map(toKafkaMessage) });
        for (const e of events) {
          const f: Followed = { kind: kindOf(e), aggregateId: e.aggregateId, version: e.aggregateVersion, sentAt };
          this.followed.push(f);
          this.pending.push(f);
        }
        count += events.length;
      }
      await sleep(50);
    }
  }

  private async produceHostile(rate: number, messages: readonly HostileMessage[]): Promise<void> {
    const began = performance.now();
    while (this.running) {
      const due = Math.floor(((performance.now() - began) / 1000) * rate) - this.hostileSent;
      for (let i = 0; i < due && this.running; i++) {
        const { key, value } = withFreshIds(messages[this.hostileSent % messages.length]!);
        await this.producer.send({ topic: this.topic, acks: -1, messages: [{ key, value }] });
        this.hostileSent += 1;
      }
      await sleep(50);
    }
  }

  private async poll(): Promise<void> {
    while (!this.closed) {
      const batch = this.pending.slice();
      if (batch.length > 0) {
        const names = projectionCollections((await readMeta(this.db)).generation).states;
        const versions = new Map<string, number>();
        for (const kind of ['competition', 'person', 'club'] as const) {
          const ids = [...new Set(batch.filter((f) => f.kind === kind).map((f) => f.aggregateId))];
          if (ids.length === 0) continue;
          const docs = await this.db
            .collection<{ _id: string; version: number }>(names[kind])
            .find({ _id: { $in: ids } }, { projection: { version: 1 } })
            .toArray();
          for (const d of docs) versions.set(d._id, d.version);
        }
        const now = performance.now();
        const still = batch.filter((f) => {
          if ((versions.get(f.aggregateId) ?? 0) < f.version) return true;
          f.visibleAt = now;
          return false;
        });
        // Events sent while this poll ran were appended after the ones it looked for.
        this.pending = [...still, ...this.pending.slice(batch.length)];
      }
      await sleep(100);
    }
  }
}
