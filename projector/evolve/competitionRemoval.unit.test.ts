import { deepFreeze } from '../../test/support/deepFreeze.ts';
import { describe, expect, it } from 'vitest';
import { exampleEvent } from '../../test/support/exampleEvents.ts';
import {
  competitionReadDocument,
  evolveCompetition,
  initialCompetitionState,
  type CompetitionEvent,
  type CompetitionState,
} from './index.ts';
import { nextRemoval } from './competitionRemoval.ts';
import { eventStream, uuid, type EventStream } from '../../test/support/testEvents.ts';

const config = { zone: 'UTC', bufferPeriodDays: 30 };

function project(events: readonly CompetitionEvent[]): CompetitionState {
  let state = deepFreeze(initialCompetitionState(events[0]?.aggregateId ?? uuid()));
  for (const event of events) state = deepFreeze(evolveCompetition(state, event, config).state);
  return state;
}

const removalOf = (events: readonly CompetitionEvent[]) =>
  competitionReadDocument(project(events), new Date('2026-01-01T00:00:00Z'), config)?.removal;

/** drafted + published, then `more` built on the same stream. */
function publishedThen(more: (s: EventStream) => CompetitionEvent[]): CompetitionEvent[] {
  const s = eventStream(uuid());
  return [
    s.next('competition.drafted', '2025-03-01T10:00:00Z', exampleEvent('competition.drafted').data),
    s.next('competition.published', '2025-03-02T10:00:00Z', {}),
    ...more(s),
  ];
}

describe('nextRemoval', () => {
  it('records leaving public view, clears it on becoming public, keeps it otherwise', () => {
    const t = '2025-05-01T00:00:00.000Z';
    const kept = { at: '2025-04-01T00:00:00.000Z', reason: 'unpublished' } as const;
    expect(nextRemoval(null, 'published', 'draft', t)).toEqual({ at: t, reason: 'unpublished' });
    expect(nextRemoval(null, 'published', 'deleted', t)).toEqual({ at: t, reason: 'deleted' });
    expect(nextRemoval(kept, 'draft', 'published', t)).toBeNull();
    expect(nextRemoval(kept, 'draft', 'deleted', t)).toBe(kept);
    expect(nextRemoval(null, 'draft', 'deleted', t)).toBeNull();
    expect(nextRemoval(null, 'published', 'published', t)).toBeNull();
  });
});

describe('removal in the competition document', () => {
  it('is null while public and for a draft that was never public, even once deleted', () => {
    expect(removalOf(publishedThen(() => []))).toBeNull();
    const s = eventStream(uuid());
    const draft = s.next('competition.drafted', '2025-03-01T10:00:00Z', exampleEvent('competition.drafted').data);
    expect(removalOf([draft, s.next('competition.deleted', '2025-03-05T10:00:00Z', {})])).toBeNull();
  });

  it("keeps the unpublication's occurredAt (canonical UTC), not the projector's clock", () => {
    const events = publishedThen((s) => [s.next('competition.unpublished', '2025-04-01T12:00:00+02:00', {})]);
    expect(removalOf(events)).toEqual({ at: '2025-04-01T10:00:00.000Z', reason: 'unpublished' });
    expect(competitionReadDocument(project(events), new Date('2030-01-01T00:00:00Z'), config)?.removal).toEqual(removalOf(events));
  });

  it('reports a deletion of a public competition as deleted', () => {
    const events = publishedThen((s) => [s.next('competition.deleted', '2025-04-02T00:00:00Z', {})]);
    expect(removalOf(events)).toEqual({ at: '2025-04-02T00:00:00.000Z', reason: 'deleted' });
  });

  it('forgets the removal when the competition is published again, and records the next one', () => {
    const back = publishedThen((s) => [
      s.next('competition.unpublished', '2025-04-01T00:00:00Z', {}),
      s.next('competition.published', '2025-04-03T00:00:00Z', {}),
    ]);
    expect(removalOf(back)).toBeNull();
    const again = publishedThen((s) => [
      s.next('competition.unpublished', '2025-04-01T00:00:00Z', {}),
      s.next('competition.published', '2025-04-03T00:00:00Z', {}),
      s.next('competition.deleted', '2025-04-05T00:00:00Z', {}),
    ]);
    expect(removalOf(again)).toEqual({ at: '2025-04-05T00:00:00.000Z', reason: 'deleted' });
  });

  it('keeps an unpublished competition reported as unpublished at that instant when it is deleted later', () => {
    const events = publishedThen((s) => [
      s.next('competition.unpublished', '2025-04-01T00:00:00Z', {}),
      s.next('competition.details_changed', '2025-04-02T00:00:00Z', { name: 'Renamed while a draft' }),
      s.next('competition.deleted', '2025-04-03T00:00:00Z', {}),
      s.next('competition.published', '2025-04-04T00:00:00Z', {}),
    ]);
    expect(removalOf(events)).toEqual({ at: '2025-04-01T00:00:00.000Z', reason: 'unpublished' });
  });

  it('is unchanged by a duplicate of the removing event', () => {
    const events = publishedThen((s) => [s.next('competition.unpublished', '2025-04-01T00:00:00Z', {})]);
    const last = events[events.length - 1]!;
    expect(removalOf([...events, { ...last }])).toEqual({ at: '2025-04-01T00:00:00.000Z', reason: 'unpublished' });
  });

  it('treats a state stored before removals were kept as having none', () => {
    const events = publishedThen(() => []);
    const { removal: _removal, ...stored } = project(events);
    const legacy = deepFreeze(stored as Partial<CompetitionState>);
    const s2 = evolveCompetition(
      legacy as CompetitionState,
      { ...events[1]!, eventId: uuid(), aggregateVersion: 3, type: 'competition.unpublished', occurredAt: '2025-04-01T00:00:00Z' },
      config,
    ).state;
    expect(competitionReadDocument(s2, new Date('2026-01-01T00:00:00Z'), config)?.removal).toEqual({
      at: '2025-04-01T00:00:00.000Z',
      reason: 'unpublished',
    });
    expect(competitionReadDocument(legacy as CompetitionState, new Date('2026-01-01T00:00:00Z'), config)?.removal).toBeNull();
  });
});
