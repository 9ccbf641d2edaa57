import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateEvent, type DomainEvent } from '../services/events/index.ts';
import { AGGREGATES_PER_MILLION_EVENTS, createHistory, planHistory } from './createHistory.ts';
import { writeNdjson } from './writeNdjson.ts';

const NOW = new Date('2026-11-23T00:00:00Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CREATING = new Set(['competition.drafted', 'person.registered', 'club.registered']);

function ndjsonHash(seed: number, events: number): string {
  const hash = createHash('sha256');
  for (const event of createHistory({ seed, events, now: NOW })) hash.update(`${JSON.stringify(event)}\n`);
  return hash.digest('hex');
}

describe('createHistory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'history-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives byte-identical NDJSON for the same seed and options, and different output for another seed', async () => {
    const first = join(dir, 'first.ndjson');
    const second = join(dir, 'second.ndjson');
    const written = await writeNdjson(first, createHistory({ seed: 42, events: 5000, now: NOW }));
    await writeNdjson(second, createHistory({ seed: 42, events: 5000, now: NOW }));
    const fileHash = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
    expect(fileHash(first)).toBe(fileHash(second));
    expect(fileHash(first)).toBe(ndjsonHash(42, 5000));
    expect(readFileSync(first, 'utf8').split('\n')).toHaveLength(written + 1);
    expect(ndjsonHash(43, 5000)).not.toBe(ndjsonHash(42, 5000));
    const later = createHash('sha256');
    for (const event of createHistory({ seed: 42, events: 5000, now: new Date('2026-12-23T00:00:00Z') }))
      later.update(JSON.stringify(event));
    expect(later.digest('hex')).not.toBe(ndjsonHash(42, 5000));
  });

  it('generates only events that pass the contract validation', () => {
    const failures: string[] = [];
    let count = 0;
    for (const event of createHistory({ seed: 42, events: 20_000, now: NOW })) {
      count++;
      // Through JSON, as a consumer receives it.
      const result = validateEvent(JSON.parse(JSON.stringify(event)));
      if (!result.ok && failures.length < 5) failures.push(`${event.type} v${event.aggregateVersion}: ${result.reason}`);
    }
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(18_000);
  });

  it('numbers each aggregate 1, 2, 3, ... with strictly increasing times, in global time order, never after now', () => {
    const last = new Map<string, { version: number; occurredAt: string }>();
    const eventIds = new Set<string>();
    const problems: string[] = [];
    let previous = '';
    let count = 0;
    for (const event of createHistory({ seed: 42, events: 20_000, now: NOW })) {
      count++;
      const seen = last.get(event.aggregateId);
      if (seen === undefined && (!CREATING.has(event.type) || event.aggregateVersion !== 1))
        problems.push(`${event.aggregateId} starts with ${event.type}`);
      if (seen !== undefined && event.aggregateVersion !== seen.version + 1)
        problems.push(`${event.aggregateId}: v${seen.version} then v${event.aggregateVersion}`);
      if (seen !== undefined && event.occurredAt <= seen.occurredAt)
        problems.push(`${event.aggregateId}: time ${event.occurredAt} after ${seen.occurredAt}`);
      if (event.occurredAt < previous) problems.push(`${event.occurredAt} after ${previous} (global order)`);
      if (!event.occurredAt.endsWith('Z') || event.occurredAt > NOW.toISOString()) problems.push(`occurredAt ${event.occurredAt}`);
      if (!UUID.test(event.eventId) || !UUID.test(event.aggregateId)) problems.push(`ids of ${event.eventId}`);
      eventIds.add(event.eventId);
      previous = event.occurredAt;
      last.set(event.aggregateId, { version: event.aggregateVersion, occurredAt: event.occurredAt });
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(eventIds.size).toBe(count);
  });

  it('scales the world and the event count with the requested size', () => {
    // A few hundred events hold one competition, a big random share of them; from a few
    // thousand up the count lands within a few percent.
    for (const [events, tolerance] of [
      [300, 0.5],
      [5000, 0.15],
      [20_000, 0.1],
    ] as const) {
      let count = 0;
      for (const _ of createHistory({ seed: 7, events, now: NOW })) count++;
      expect(count, `events: ${events}`).toBeGreaterThan(events * (1 - tolerance));
      expect(count, `events: ${events}`).toBeLessThan(events * (1 + tolerance));
    }
    const { counts } = planHistory({ seed: 1, events: 1_000_000, now: NOW });
    expect(counts).toEqual(AGGREGATES_PER_MILLION_EVENTS);
  });

  it('streams 300,000 events without holding them', { timeout: 60_000 }, () => {
    let count = 0;
    let last: DomainEvent | undefined;
    for (const event of createHistory({ seed: 42, events: 300_000, now: NOW })) {
      count++;
      last = event;
    }
    expect(count).toBeGreaterThan(270_000);
    expect(count).toBeLessThan(330_000);
    expect(last?.occurredAt.startsWith('2026-11-2')).toBe(true);
  });

  it('rejects sizes and dates it cannot honour', () => {
    expect(() => planHistory({ seed: 1, events: 0, now: NOW })).toThrow(/events/);
    expect(() => planHistory({ seed: 1, events: 10, now: new Date('nope') })).toThrow(/now/);
  });
});
