import type { DomainEvent } from '../services/events/index.ts';
import type { EventBody } from './actor.ts';
import { ClubActor } from './clubActor.ts';
import { CompetitionActor } from './competitionActor.ts';
import { PersonActor } from './personActor.ts';
import { createRandom } from './random.ts';
import { DAY, YEAR, dateTime, fromDate, startOfDay } from './time.ts';
import { TimeQueue, type Queued } from './timeQueue.ts';
import { createWorld, type World } from './world.ts';

export interface HistoryOptions {
  /** 32-bit integer (higher bits are ignored). */
  readonly seed: number;
  /**
   * About how many events to generate: the mix is random, so the count lands close to it, the
   * closer the more events (in a few hundred, one competition is a big share).
   */
  readonly events: number;
  /** The instant the history ends at; no event occurs later. */
  readonly now: Date;
  /** How far back the history starts. Default 6. */
  readonly years?: number;
}

/**
 * Aggregates per 1,000,000 events, from the mean events the generator gives each kind (a person:
 * registration, grants, yearly payments, club and coach links, corrections; a competition:
 * categories, entries, edits; a club), so that a history of N events holds about N events
 * (measured: see docs/performance.md, The history generator). About 40 persons per club; a
 * 250,000-person registry takes ~2,500,000 events.
 */
export const AGGREGATES_PER_MILLION_EVENTS = { persons: 102_000, competitions: 4_200, clubs: 2_500 } as const;

/** The previous registry was imported during the first two weeks: a burst of old records. */
const IMPORT_SPAN = 14 * DAY;
const IMPORT_SHARE = { persons: 0.35, competitions: 0, clubs: 0.5 } as const;

type Kind = keyof typeof AGGREGATES_PER_MILLION_EVENTS;

export interface HistoryPlan {
  readonly start: number;
  readonly now: number;
  readonly counts: Readonly<Record<Kind, number>>;
}

export function planHistory(options: HistoryOptions): HistoryPlan {
  const now = fromDate(options.now);
  if (!Number.isFinite(now)) throw new Error('now must be a valid date');
  if (!Number.isInteger(options.events) || options.events < 1) throw new Error('events must be a positive integer');
  const scale = (perMillion: number, min: number): number => Math.max(min, Math.round((options.events * perMillion) / 1_000_000));
  return {
    start: startOfDay(now - (options.years ?? 6) * YEAR),
    now,
    counts: {
      persons: scale(AGGREGATES_PER_MILLION_EVENTS.persons, 5),
      competitions: scale(AGGREGATES_PER_MILLION_EVENTS.competitions, 1),
      clubs: scale(AGGREGATES_PER_MILLION_EVENTS.clubs, 2),
    },
  };
}

/** Brings aggregates of one kind into the world, spread over the history in time order. */
class Spawner implements Queued {
  dueAt = 0;
  seq = 0;
  spawned = 0;
  nextImported = false;
  readonly kind: Kind;
  readonly count: number;

  constructor(kind: Kind, count: number) {
    this.kind = kind;
    this.count = count;
  }

  /** Queues the next aggregate at quantile (k + u) / count of the spawn-time distribution. */
  queueNext(queue: TimeQueue<Item>, world: World): void {
    if (this.spawned >= this.count) return;
    const q = (this.spawned + world.random.float()) / this.count;
    const share = IMPORT_SHARE[this.kind];
    this.nextImported = q < share;
    const rest = world.now - world.start - IMPORT_SPAN;
    const at = this.nextImported ? world.start + (q / share) * IMPORT_SPAN : world.start + IMPORT_SPAN + ((q - share) / (1 - share)) * rest;
    queue.push(this, Math.floor(at));
  }

  spawn(world: World, at: number): AnyActor {
    this.spawned++;
    if (this.kind === 'persons') return new PersonActor(world, at, this.nextImported);
    if (this.kind === 'competitions') return new CompetitionActor(world, at);
    return new ClubActor(world, at, this.nextImported);
  }
}

type AnyActor = PersonActor | CompetitionActor | ClubActor;
type Item = Spawner | AnyActor;

/**
 * A federation's history as a stream of contract events, in time order. Every aggregate and
 * spawner waits in one time queue; only aggregates with plans left stay in memory, so millions
 * of events stream in bounded memory. Same options, same events, byte for byte.
 */
export function* createHistory(options: HistoryOptions): Generator<DomainEvent, void, undefined> {
  const plan = planHistory(options);
  const world = createWorld(createRandom(options.seed), plan.start, plan.now);
  const queue = new TimeQueue<Item>();
  for (const kind of ['clubs', 'competitions', 'persons'] as const) new Spawner(kind, plan.counts[kind]).queueNext(queue, world);
  for (let item = queue.pop(); item !== undefined; item = queue.pop()) {
    const at = item.dueAt;
    if (item instanceof Spawner) {
      const actor = item.spawn(world, at);
      queue.push(actor, actor.nextAt());
      item.queueNext(queue, world);
      continue;
    }
    const body = item.step(at);
    if (body !== null) {
      item.version++;
      item.lastAt = at;
      yield envelope(world, item, body, at);
    }
    const next = item.nextAt();
    if (next <= plan.now) queue.push(item, next);
  }
}

function envelope(world: World, actor: AnyActor, body: EventBody, at: number): DomainEvent {
  // One literal in a fixed key order: the NDJSON of a run is byte-identical to the next one's.
  return {
    eventId: world.random.uuid(),
    type: body.type,
    schemaVersion: 1,
    occurredAt: dateTime(at),
    aggregateId: actor.id,
    aggregateVersion: actor.version,
    data: body.data,
  } as DomainEvent;
}
