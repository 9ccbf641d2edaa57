import { deepFreeze } from '../../test/support/deepFreeze.ts';
import { describe, expect, it } from 'vitest';
import { type CompetitionDetails } from '../../services/events/index.ts';
import { category } from '../../test/api/eventBuilders.ts';
import { exampleEvent } from '../../test/support/exampleEvents.ts';
import {
  competitionReadDocument,
  evolveCompetition,
  initialCompetitionState,
  type CompetitionEvent,
  type CompetitionState,
} from './index.ts';
import { eventStream, uuid } from '../../test/support/testEvents.ts';
import { calendarDay } from '../../services/calendar/index.ts';
import { resolveRegistrationState } from '../../services/readModel/index.ts';

const riga = { zone: 'Europe/Riga', bufferPeriodDays: 30 };
const details = (): CompetitionDetails => exampleEvent('competition.drafted').data;

function project(events: CompetitionEvent[], config = riga): CompetitionState {
  const first = events[0];
  if (!first) throw new Error('no events');
  let state = deepFreeze(initialCompetitionState(first.aggregateId));
  for (const event of events) state = deepFreeze(evolveCompetition(state, event, config).state);
  return state;
}

const doc = (state: CompetitionState, now: string, config = riga) => {
  const d = competitionReadDocument(state, new Date(now), config);
  if (!d) throw new Error('no document');
  // The state the API serves for this document at `now` (it resolves it per request; nothing stores it).
  const registrationState = resolveRegistrationState(d, calendarDay(new Date(now), config.zone));
  return { ...d, registration: { ...d.registration, state: registrationState } };
};

describe('competition lifecycle', () => {
  it('keeps a draft invisible, and publication makes it visible with updatedAt = publication', () => {
    const s = eventStream(uuid());
    const drafted = s.next('competition.drafted', '2025-03-01T10:00:00Z', details());
    const draft = project([drafted]);
    expect(doc(draft, '2025-03-01T12:00:00Z').visible).toBe(false);
    const published = project([drafted, s.next('competition.published', '2025-03-02T08:00:00+02:00', {})]);
    const d = doc(published, '2025-03-03T00:00:00Z');
    expect(d).toMatchObject({
      visible: true,
      createdAt: '2025-03-01T10:00:00.000Z',
      updatedAt: '2025-03-02T06:00:00.000Z',
      slug: 'riga-open-2025',
    });
  });

  it('has no document before competition.drafted', () => {
    expect(competitionReadDocument(initialCompetitionState(uuid()), new Date(), riga)).toBeNull();
  });

  it('lets the slug change while a draft and freezes it at publication, also after unpublishing', () => {
    const s = eventStream(uuid());
    const events: CompetitionEvent[] = [
      s.next('competition.drafted', '2025-03-01T10:00:00Z', details()),
      s.next('competition.details_changed', '2025-03-01T11:00:00Z', { slug: 'riga-open' }),
      s.next('competition.published', '2025-03-02T10:00:00Z', {}),
      s.next('competition.details_changed', '2025-03-03T10:00:00Z', { slug: 'renamed', name: 'Riga Open (WDSF)' }),
    ];
    const state = project(events);
    expect(doc(state, '2025-03-04T00:00:00Z')).toMatchObject({ slug: 'riga-open', name: 'Riga Open (WDSF)' });
    const later = project([
      ...events,
      s.next('competition.unpublished', '2025-03-05T10:00:00Z', {}),
      s.next('competition.details_changed', '2025-03-06T10:00:00Z', { slug: 'again' }),
      s.next('competition.published', '2025-03-07T10:00:00Z', {}),
    ]);
    expect(doc(later, '2025-03-08T00:00:00Z').slug).toBe('riga-open');
  });

  it('does not move updatedAt for an ignored slug change', () => {
    const s = eventStream(uuid());
    const state = project([
      s.next('competition.drafted', '2025-03-01T10:00:00Z', details()),
      s.next('competition.published', '2025-03-02T10:00:00Z', {}),
      s.next('competition.details_changed', '2025-03-03T10:00:00Z', { slug: 'renamed' }),
    ]);
    expect(doc(state, '2025-03-04T00:00:00Z').updatedAt).toBe('2025-03-02T10:00:00.000Z');
  });

  it('hides an unpublished competition and a deleted one for good', () => {
    const s = eventStream(uuid());
    const published = [
      s.next('competition.drafted', '2025-03-01T10:00:00Z', details()),
      s.next('competition.published', '2025-03-02T10:00:00Z', {}),
    ];
    const unpublished = project([...published, s.next('competition.unpublished', '2025-03-03T10:00:00Z', {})]);
    expect(doc(unpublished, '2025-03-04T00:00:00Z').visible).toBe(false);
    const deletedEvents = [...published, s.next('competition.deleted', '2025-03-04T10:00:00Z', {})];
    const deleted = project(deletedEvents);
    expect(doc(deleted, '2025-03-05T00:00:00Z').visible).toBe(false);
    const afterDelete = evolveCompetition(deleted, s.next('competition.published', '2025-03-05T10:00:00Z', {}), riga);
    expect(afterDelete.outcome).toBe('ignored');
    expect(afterDelete.state.version).toBe(5);
    expect(doc(afterDelete.state, '2025-03-06T00:00:00Z').visible).toBe(false);
  });

  it('completes: status completed and registration closed', () => {
    const s = eventStream(uuid());
    const state = project([
      s.next('competition.drafted', '2025-03-01T10:00:00Z', details()),
      s.next('competition.published', '2025-03-02T10:00:00Z', {}),
      s.next('competition.completed', '2025-05-01T10:00:00Z', {}),
    ]);
    const d = doc(state, '2025-05-02T00:00:00Z');
    expect(d.status).toBe('completed');
    expect(d.registration.state).toBe('closed');
    expect(d.updatedAt).toBe('2025-05-01T10:00:00.000Z');
    expect(d.nextDueAt).toBeNull();
  });
});

describe('categories and entries', () => {
  const latin = category(1, { name: 'Youth Latin', ageGroup: 'Youth', level: 6, displayOrder: 2 });
  const standard = category(2, { name: 'Adult Standard', style: 'standard', ageGroup: 'Youth', level: 6, displayOrder: 1 });
  const [e1, e2, e3] = [uuid(), uuid(), uuid()];
  const s = eventStream(uuid());
  const base: CompetitionEvent[] = [
    s.next('competition.drafted', '2025-03-01T10:00:00Z', details()),
    s.next('competition.category_added', '2025-03-01T10:01:00Z', { category: latin }),
    s.next('competition.category_added', '2025-03-01T10:02:00Z', { category: standard }),
    s.next('competition.published', '2025-03-02T10:00:00Z', {}),
    s.next('competition.entry_submitted', '2025-04-02T10:00:00Z', { entryId: e1, categoryIds: [latin.id, standard.id] }),
    s.next('competition.entry_submitted', '2025-04-03T10:00:00Z', { entryId: e2, categoryIds: [latin.id] }),
    s.next('competition.entry_submitted', '2025-04-04T10:00:00Z', { entryId: e3, categoryIds: [standard.id] }),
  ];

  it('counts entries and starts from the entries themselves', () => {
    const d = doc(project(base), '2025-04-05T00:00:00Z');
    expect(d.registration).toMatchObject({ entriesCount: 3, startsCount: 4 });
    expect(d.categories.map((c) => [c.name, c.startsCount])).toEqual([
      ['Adult Standard', 2],
      ['Youth Latin', 2],
    ]);
    expect(d.updatedAt).toBe('2025-04-04T10:00:00.000Z');
  });

  it("replaces an entry's categories on entry_changed and drops it on entry_withdrawn", () => {
    const changed = project([
      ...base,
      s.next('competition.entry_changed', '2025-04-06T10:00:00Z', { entryId: e1, categoryIds: [standard.id] }),
    ]);
    expect(doc(changed, '2025-04-07T00:00:00Z').registration).toMatchObject({ entriesCount: 3, startsCount: 3 });
    const withdrawn = project([
      ...base,
      s.next('competition.entry_changed', '2025-04-06T10:00:00Z', { entryId: e1, categoryIds: [standard.id] }),
      s.next('competition.entry_withdrawn', '2025-04-07T10:00:00Z', { entryId: e2 }),
    ]);
    const d = doc(withdrawn, '2025-04-08T00:00:00Z');
    expect(d.registration).toMatchObject({ entriesCount: 2, startsCount: 2 });
    expect(d.categories.map((c) => c.startsCount)).toEqual([2, 0]);
    expect(d.updatedAt).toBe('2025-04-07T10:00:00.000Z');
  });

  it('drops a removed category and its starts, keeping the entries', () => {
    const removed = project([...base, s.next('competition.category_removed', '2025-04-08T10:00:00Z', { categoryId: latin.id })]);
    const d = doc(removed, '2025-04-09T00:00:00Z');
    expect(d.categories.map((c) => c.id)).toEqual([standard.id]);
    expect(d.registration).toMatchObject({ entriesCount: 3, startsCount: 2 });
  });

  it('applies category changes, re-sorting by displayOrder; a change to an unknown category is ignored', () => {
    const changed = project([
      ...base,
      s.next('competition.category_changed', '2025-04-08T10:00:00Z', { categoryId: latin.id, changes: { displayOrder: 0, level: 7 } }),
    ]);
    const d = doc(changed, '2025-04-09T00:00:00Z');
    expect(d.categories[0]).toMatchObject({ id: latin.id, level: 7, displayOrder: 0, startsCount: 2 });
    const unknown = evolveCompetition(
      changed,
      s.next('competition.category_changed', '2025-04-09T10:00:00Z', { categoryId: uuid(), changes: { level: 1 } }),
      riga,
    );
    expect(unknown.outcome).toBe('ignored');
    expect(doc(unknown.state, '2025-04-10T00:00:00Z').updatedAt).toBe('2025-04-08T10:00:00.000Z');
  });
});

describe('registration.state by calendar day in the zone', () => {
  // Example details: opensAt 2025-04-01, deadline 2025-06-07.
  const s = eventStream(uuid());
  const state = project([
    s.next('competition.drafted', '2025-03-01T10:00:00Z', details()),
    s.next('competition.published', '2025-03-02T10:00:00Z', {}),
  ]);

  it('opens at the start of the opening day in Riga (21:00 UTC the day before)', () => {
    const before = doc(state, '2025-03-31T20:59:59.999Z');
    expect(before.registration.state).toBe('not_yet_open');
    expect(before.updatedAt).toBe('2025-03-02T10:00:00.000Z');
    expect(before.nextDueAt?.toISOString()).toBe('2025-03-31T21:00:00.000Z');
    const opening = doc(state, '2025-03-31T21:00:00Z');
    expect(opening.registration.state).toBe('open');
    expect(opening.updatedAt).toBe('2025-03-31T21:00:00.000Z');
  });

  it('is open all of the deadline day and closed from the start of the next', () => {
    const deadlineDay = doc(state, '2025-06-07T20:59:59Z');
    expect(deadlineDay.registration.state).toBe('open');
    expect(deadlineDay.nextDueAt?.toISOString()).toBe('2025-06-07T21:00:00.000Z');
    const after = doc(state, '2025-06-07T21:00:00Z');
    expect(after.registration.state).toBe('closed');
    expect(after.updatedAt).toBe('2025-06-07T21:00:00.000Z');
    expect(after.nextDueAt).toBeNull();
  });

  it('is the same document live or rebuilt later for the same now', () => {
    const now = new Date('2025-05-01T00:00:00Z');
    expect(competitionReadDocument(state, now, riga)).toEqual(competitionReadDocument(structuredClone(state), now, riga));
  });

  it('is closed whenever the organiser sets status closed', () => {
    const closed = evolveCompetition(
      state,
      s.next('competition.details_changed', '2025-04-10T10:00:00Z', { registration: { ...details().registration, status: 'closed' } }),
      riga,
    ).state;
    const d = doc(closed, '2025-04-11T00:00:00Z');
    expect(d.registration).toMatchObject({ status: 'closed', state: 'closed' });
    expect(d.updatedAt).toBe('2025-04-10T10:00:00.000Z');
  });
});

describe('public fields and query keys', () => {
  it('derives plain-text description from Markdown, label, and the search keys', () => {
    const s = eventStream(uuid());
    const state = project([
      s.next('competition.drafted', '2025-03-01T10:00:00Z', details()),
      s.next('competition.published', '2025-03-02T10:00:00Z', {}),
      s.next('competition.details_changed', '2025-03-03T10:00:00Z', {
        descriptionFormatted: '# Welcome\n\nA *great* [event](https://x.example) at 5 \\* 3.\n\n- one\n- two',
      }),
    ]);
    const d = doc(state, '2025-03-04T00:00:00Z');
    expect(d.description).toBe('Welcome\n\nA great event at 5 * 3.\n\none\n\ntwo');
    expect(d.descriptionFormatted).toContain('*great*');
    expect(d.location.label).toBe('Rīga, Latvia');
    expect(d.q).toMatchObject({ name: 'riga open 2025', city: 'riga', country: ['latvia', 'lv'], registrationExternalUrl: null });
    expect(d.s.text.split('\n')).toContain('arena riga');
    expect(d.s.tokens).toEqual(expect.arrayContaining(['gre', 'rea', 'eat']));
  });

  it('gives a null description and label when there is nothing to show', () => {
    const s = eventStream(uuid());
    const data = details();
    const state = project([
      s.next('competition.drafted', '2025-03-01T10:00:00Z', {
        ...data,
        descriptionFormatted: '  ',
        location: { ...data.location, city: null, country: null },
      }),
    ]);
    const d = doc(state, '2025-03-02T00:00:00Z');
    expect(d.description).toBeNull();
    expect(d.location.label).toBeNull();
  });
});

describe('idempotence', () => {
  const s = eventStream(uuid());
  const drafted = s.next('competition.drafted', '2025-03-01T10:00:00Z', details());
  const published = s.next('competition.published', '2025-03-02T10:00:00Z', {});
  const entry = s.next('competition.entry_submitted', '2025-04-02T10:00:00Z', { entryId: uuid(), categoryIds: [uuid()] });
  const state = project([drafted, published, entry]);

  it('ignores the same event twice', () => {
    const again = evolveCompetition(state, entry, riga);
    expect(again.outcome).toBe('duplicate');
    expect(again.state).toBe(state);
  });

  it('ignores a version at or below the applied one, even with a new eventId', () => {
    const replayed = evolveCompetition(state, { ...published, eventId: uuid() }, riga);
    expect(replayed.outcome).toBe('duplicate');
    expect(doc(replayed.state, '2025-04-03T00:00:00Z').registration.entriesCount).toBe(1);
  });

  it('applies a version gap and reports it', () => {
    const gap = evolveCompetition(state, { ...s.next('competition.completed', '2025-05-01T10:00:00Z', {}), aggregateVersion: 9 }, riga);
    expect(gap.outcome).toBe('gap');
    expect(gap.state).toMatchObject({ version: 9, gaps: 1, status: 'completed' });
  });

  it('does not modify the state it was given', () => {
    const snapshot = structuredClone(state);
    evolveCompetition(state, s.next('competition.completed', '2025-05-01T10:00:00Z', {}), riga);
    expect(state).toEqual(snapshot);
  });
});
