import type { KafkaMessage } from 'kafkajs';
import { expect, it } from 'vitest';
import { deadLetter } from '../../projector/consume/deadLetter.ts';
import { deadLetterBytes, deadLetterSends } from '../../projector/consume/sendDeadLetters.ts';
import type { ProjectionConfig } from '../../projector/evolve/index.ts';
import { projectEvents } from '../../projector/write/projectEvents.ts';
import { parseEventBytes, type DomainEvent } from '../../services/events/index.ts';
import { doublingRatios } from '../support/doublingCost.ts';
import { MemoryProjectionStore } from '../support/memoryProjectionStore.ts';
import type { Grown } from './growingAggregates.ts';

// What one hostile input costs the projector in process, on the memory store (a pure pipeline:
// no database, so a time is the fold's, the cascade's and the writes' own): the time and the
// bytes written. Doubling a hostile input costs at most about 2.5x the time and the bytes written
// (issue 37): linear work gives 2x, a cost that grows with the aggregate's history (each batch
// rewriting all of it) 4x, and more for one rescanned per point. The bytes are counted (the same
// on every run); the time is the best of a few runs in turns (doublingCost.ts).

/** How much more doubling an input may cost: only a cost that grows faster than the input passes it. */
export const DOUBLING_BOUND = 2.5;

export interface CostCase {
  name: string;
  /** The smaller size (the larger is twice it). */
  n: number;
  /** Applies the input of `size`; returns the bytes it wrote. */
  apply: (size: number) => Promise<number> | number;
}

const config: ProjectionConfig = { zone: 'UTC', bufferPeriodDays: 30 };
const NOW = new Date('2026-11-23T12:00:00Z');
/** Events per batch: small, as a live partition's chunks are when events come one at a time. */
export const BATCH = 50;

/** Projects `events` in batches of BATCH onto a fresh memory store; returns the bytes it wrote. */
export async function projectAll(events: readonly DomainEvent[]): Promise<number> {
  const store = new MemoryProjectionStore({ countBytes: true });
  for (let i = 0; i < events.length; i += BATCH) await projectEvents(events.slice(i, i + BATCH), store, config, NOW);
  return [...store.bytes.values()].reduce((a, b) => a + b, 0);
}

/** The consumer's path for invalid messages (parse, dead letter, bounded sends); returns the bytes of the letters. */
export function deadLetterAll(values: readonly string[], key: string): number {
  const now = new Date();
  const letters = values.map((value, i) => {
    const message = { key: Buffer.from(key), value: Buffer.from(value), offset: String(i), headers: {} } as unknown as KafkaMessage;
    const parsed = parseEventBytes(message.value);
    if (parsed.ok) throw new Error(`message ${i} of the storm is valid`);
    return deadLetter(message, { topic: 'storm', partition: 0 }, parsed.reason, now);
  });
  return deadLetterSends(letters)
    .flat()
    .reduce((bytes, letter) => bytes + deadLetterBytes(letter), 0);
}

/** Memoizes an input builder by size, so a timing measures the pipeline, not the building. */
export function bySize<T>(build: (size: number) => T): (size: number) => T {
  const built = new Map<number, T>();
  return (size) => {
    let input = built.get(size);
    if (input === undefined) built.set(size, (input = build(size)));
    return input;
  };
}

/** A case's apply for grown aggregates: their events, projected (built once per size). */
export function projecting(build: (size: number) => Grown | Grown[]): (size: number) => Promise<number> {
  const input = bySize((size) => [build(size)].flat().flatMap((g) => g.events));
  return (size) => projectAll(input(size));
}

/** One test per case: twice the input costs at most DOUBLING_BOUND times the bytes and the time. */
export function doublingCostTests(cases: readonly CostCase[]): void {
  for (const { name, n, apply } of cases) {
    it(`${name}: ${n} against ${2 * n}`, async () => {
      const bytes = [await apply(n), await apply(2 * n)] as const;
      const time = await doublingRatios(apply, n, { bound: DOUBLING_BOUND, rounds: 3, tries: 4 });
      const ratios = time.ratios.map((r) => r.toFixed(2)).join(', ');
      process.stdout.write(
        `[hostile cost] ${name}: n ${time.ms[0].toFixed(0)} ms, 2n ${time.ms[1].toFixed(0)} ms (ratios ${ratios}); ` +
          `bytes ${bytes[0]} then ${bytes[1]} (${(bytes[1] / bytes[0]).toFixed(2)})\n`,
      );
      expect(bytes[1] / bytes[0], 'bytes written').toBeLessThanOrEqual(DOUBLING_BOUND);
      expect(time.best, `time: ratios ${ratios}`).toBeLessThanOrEqual(DOUBLING_BOUND);
    }, 180_000);
  }
}
