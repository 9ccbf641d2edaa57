import { randomUUID } from 'node:crypto';
import type { Producer } from 'kafkajs';
import type { DomainEvent } from '../services/events/index.ts';
import { competitionDetails } from '../test/api/eventBuilders.ts';

/**
 * The bench's events: `competitions` published competitions, then renames of them in turn, each
 * one public change of one competition. It notes when it produced each rename, so that a
 * subscriber's n-th change of a competition is matched to the n-th rename of it.
 */
export class ChangeProducer {
  readonly ids: string[];
  /** Per competition, the instants (ms since the epoch) its renames were produced, in order. */
  readonly producedAt = new Map<string, number[]>();
  private readonly versions = new Map<string, number>();
  private next = 0;
  sent = 0;

  private readonly producer: Producer;
  private readonly topic: string;

  constructor(producer: Producer, topic: string, competitions: number) {
    this.producer = producer;
    this.topic = topic;
    this.ids = Array.from({ length: competitions }, () => randomUUID());
  }

  /** Drafts and publishes every competition: their changes come before any rename is timed. */
  async seed(): Promise<number> {
    const events = this.ids.flatMap((id, n) => [
      this.event(id, 'competition.drafted', competitionDetails(n, { slug: `bench-${id}`, name: `Bench ${n}` })),
      this.event(id, 'competition.published', {}),
    ]);
    for (let i = 0; i < events.length; i += 1_000) await this.send(events.slice(i, i + 1_000));
    return events.length;
  }

  /** `rate` renames a second for `seconds`, sent every `tickMs` (each tick catches up with the clock). */
  async run(rate: number, seconds: number, tickMs = 20): Promise<void> {
    const started = performance.now();
    const total = Math.round(rate * seconds);
    while (this.sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      const batch: DomainEvent[] = [];
      const now = Date.now();
      for (; this.sent < due; this.sent++) {
        const id = this.ids[this.next++ % this.ids.length]!;
        batch.push(this.event(id, 'competition.details_changed', { name: `Bench ${id.slice(0, 8)} ${this.sent}` }));
        const times = this.producedAt.get(id) ?? [];
        times.push(now);
        this.producedAt.set(id, times);
      }
      if (batch.length > 0) await this.send(batch);
      await new Promise((resolve) => setTimeout(resolve, tickMs));
    }
  }

  private event(aggregateId: string, type: DomainEvent['type'], data: unknown): DomainEvent {
    const version = (this.versions.get(aggregateId) ?? 0) + 1;
    this.versions.set(aggregateId, version);
    return {
      eventId: randomUUID(),
      type,
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
      aggregateId,
      aggregateVersion: version,
      data,
    } as DomainEvent;
  }

  private async send(events: readonly DomainEvent[]): Promise<void> {
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: events.map((event) => ({ key: event.aggregateId, value: JSON.stringify(event) })),
    });
  }
}
