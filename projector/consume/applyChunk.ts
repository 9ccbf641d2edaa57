import type { KafkaMessage, Producer } from 'kafkajs';
import { EVENT_TYPES, parseEventBytes, type DomainEvent } from '../../services/events/index.ts';
import type { Logger } from '../../services/logger.ts';
import type { ProjectorMetrics } from '../metrics/projectorMetrics.ts';
import { deadLetter, type DeadLetter } from './deadLetter.ts';
import { describeError, runIsolating } from './runIsolating.ts';
import { sendDeadLetters } from './sendDeadLetters.ts';

export type ApplyOutcome = 'applied' | 'duplicate' | 'gap';

/** What the consumer hands valid events to: folds them and returns once the writes are durable. */
export interface EventSink {
  apply(events: DomainEvent[]): Promise<ApplyOutcome[]>;
}

export interface ChunkDeps {
  topic: string;
  dlqTopic: string;
  sink: EventSink;
  /** Sends the dead letters (the consumer's idempotent producer). */
  producer: Producer;
  metrics: ProjectorMetrics;
  logger: Logger;
  clock: () => Date;
}

/**
 * Validates a chunk of one partition's messages, dead-letters the bad ones and folds the rest
 * through the sink; resolves once both are durable, so the caller may commit past the chunk.
 */
export function chunkApplier(deps: ChunkDeps): (chunk: readonly KafkaMessage[], partition: number) => Promise<void> {
  return async (chunk, partition) => {
    const valid: Folding[] = [];
    const dead: DeadLetter[] = [];
    const now = deps.clock();
    for (const message of chunk) {
      const parsed = parseEventBytes(message.value);
      if (parsed.ok) {
        valid.push({ event: parsed.event, message });
      } else {
        dead.push(deadLetter(message, { topic: deps.topic, partition }, parsed.reason, now));
        deps.metrics.eventsDeadLettered.inc({ type: typeLabel(message.value) });
        deps.logger.warn({ partition, offset: message.offset, reason: parsed.reason }, 'dead-lettered an invalid message');
      }
    }
    // Dead letters first: once the offset is committed the original is never read again.
    await sendDeadLetters(deps.producer, deps.dlqTopic, dead);
    if (valid.length === 0) return;
    const outcomes = await applyIsolating(valid, partition, now, deps);
    const applied = valid.filter((_, i) => outcomes[i] !== 'poison');
    countOutcomes(
      applied.map((f) => f.event),
      outcomes.filter((o) => o !== 'poison'),
      deps,
    );
  };
}

interface Folding {
  event: DomainEvent;
  message: KafkaMessage;
}

/**
 * Folds the events through the sink; an event whose fold fails on its own content is found by
 * halving (runIsolating) and dead-lettered with the error as its reason.
 */
function applyIsolating(items: readonly Folding[], partition: number, now: Date, deps: ChunkDeps): Promise<(ApplyOutcome | 'poison')[]> {
  return runIsolating<Folding, ApplyOutcome | 'poison'>(
    items,
    (some) => deps.sink.apply(some.map((item) => item.event)),
    async ({ event, message }, error) => {
      const reason = `the fold failed on this event: ${describeError(error)}`;
      await sendDeadLetters(deps.producer, deps.dlqTopic, [deadLetter(message, { topic: deps.topic, partition }, reason, now)]);
      deps.metrics.eventsDeadLettered.inc({ type: event.type });
      deps.logger.error(
        { partition, offset: message.offset, type: event.type, aggregateId: event.aggregateId, err: error },
        'dead-lettered an event whose fold failed',
      );
      return 'poison';
    },
  );
}

/**
 * Counted per chunk and type, then added once per label: a labelled inc per event cost as much
 * as folding some events.
 */
function countOutcomes(
  events: readonly DomainEvent[],
  outcomes: readonly ApplyOutcome[],
  deps: Pick<ChunkDeps, 'metrics' | 'logger'>,
): void {
  const tallies = { applied: new Map<string, number>(), duplicate: new Map<string, number>(), gap: new Map<string, number>() };
  const count = (tally: Map<string, number>, type: string): void => void tally.set(type, (tally.get(type) ?? 0) + 1);
  outcomes.forEach((outcome, i) => {
    const event = events[i]!;
    if (outcome === 'duplicate') {
      count(tallies.duplicate, event.type);
      return;
    }
    count(tallies.applied, event.type);
    if (outcome === 'gap') {
      count(tallies.gap, event.type);
      deps.logger.warn(
        { aggregateId: event.aggregateId, aggregateVersion: event.aggregateVersion, type: event.type },
        'aggregate version gap; applied anyway',
      );
    }
  });
  for (const [type, n] of tallies.applied) deps.metrics.eventsApplied.inc({ type }, n);
  for (const [type, n] of tallies.duplicate) deps.metrics.eventsDuplicate.inc({ type }, n);
  for (const [type, n] of tallies.gap) deps.metrics.versionGaps.inc({ type }, n);
}

const knownTypes: ReadonlySet<string> = new Set(EVENT_TYPES);

/** A bounded metric label for a rejected message: its `type` when that is a known one. */
function typeLabel(value: Buffer | null): string {
  if (!value) return 'unparsable';
  try {
    const type = (JSON.parse(value.toString('utf8')) as { type?: unknown }).type;
    return typeof type === 'string' && knownTypes.has(type) ? type : 'unknown';
  } catch {
    return 'unparsable';
  }
}
