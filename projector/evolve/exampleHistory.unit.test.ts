import { describe, expect, it } from 'vitest';
import { exampleEvents, exampleIds } from '../../test/support/exampleEvents.ts';
import { createInMemoryReadModel } from '../../test/support/inMemoryReadModel.ts';

// The shared example history (services/events/exampleEvents.ts), projected event by event with
// each event's own instant as "now", then swept by the clock at the end.

const config = { zone: 'UTC', bufferPeriodDays: 30 };
const now = new Date('2025-10-03T00:00:00Z');

function project() {
  const m = createInMemoryReadModel(config);
  for (const event of exampleEvents) {
    m.sweep(new Date(event.occurredAt));
    expect(m.apply(event, new Date(event.occurredAt))).not.toBe('gap');
  }
  m.sweep(now);
  return m;
}

describe('the example history', () => {
  const m = project();

  it('ends with the published competition, its remaining category and entry, and a plain-text description', () => {
    const c = m.competitions.get(exampleIds.competition);
    expect(c).toMatchObject({
      visible: true,
      slug: 'riga-open-2025',
      name: 'Riga Open 2025 (WDSF)',
      status: 'completed',
      description: 'Two days of Latin and Standard in the Arena Riga.\n\nSaturday: juniors\n\nSunday: adults',
      registration: { status: 'open', maxEntries: 450, entriesCount: 1, startsCount: 1 },
      createdAt: '2025-03-01T10:00:00.000Z',
      updatedAt: '2025-06-16T06:00:00.000Z',
    });
    expect(c && 'state' in c.registration).toBe(false); // resolved by the API per request, not stored
    expect(c?.categories.map((x) => [x.id, x.startsCount])).toEqual([[exampleIds.categoryStandard, 1]]);
    expect(m.competitions.get(exampleIds.draftCompetition)?.visible).toBe(false);
  });

  it('ends with the dancer reinstated, lapsed, and without the links its archival closed', () => {
    expect(m.dancers.get(exampleIds.dancer)).toMatchObject({
      registryState: 'REGISTRY',
      registryUntil: '2026-10-15',
      archivedAt: null,
      status: 'INACTIVE',
      danceClass: 5,
      avatar: 'https://cdn.federation.example/avatars/berzina.jpg',
      q: { clubIds: [], coachIds: [], hasPartner: true },
    });
    const links = m.personStates.get(exampleIds.dancer)?.links ?? [];
    expect(links.map((l) => [l.kind, l.closedAt, l.closedBy])).toEqual([
      ['club', '2025-05-02T00:00:00.000Z', 'archival'],
      ['coach', '2025-05-02T00:00:00.000Z', 'archival'],
    ]);
  });

  it('ends with the judge archived on its registryUntil day but ACTIVE after the correction', () => {
    expect(m.judges.get(exampleIds.judge)).toMatchObject({
      registryState: 'ARCHIVE',
      archivedAt: '2025-05-11T00:00:00.000Z',
      registryUntil: null,
      status: 'ACTIVE',
      judgeCategory: 2,
    });
  });

  it('ends with the coach archived by the buffer 30 days after its only dancer was archived', () => {
    expect(m.coaches.get(exampleIds.coach)).toMatchObject({
      registryState: 'ARCHIVE',
      archivedAt: '2025-06-01T00:00:00.000Z',
      highestClass: 8,
    });
  });

  it('ends with the club reinstated into the buffer, its branch as the only (main) location', () => {
    expect(m.clubs.get(exampleIds.club)).toMatchObject({
      registryState: 'BUFFER',
      archivedAt: null,
      dancersCount: 0,
      coachesCount: 0,
      address: 'Rīgas iela 5, Jūrmala (2nd floor)',
      locations: [{ type: 'main', city: 'Jūrmala' }],
      q: { bufferSince: '2025-10-02T10:00:00.000Z' },
    });
    expect(m.clubs.get(exampleIds.club)?.nextDueAt?.toISOString()).toBe('2025-11-01T10:00:00.000Z');
  });

  it('is reproduced by a replay at the final instant', () => {
    const replay = createInMemoryReadModel(config);
    for (const event of exampleEvents) replay.apply(event, now);
    replay.sweep(now);
    for (const name of ['competitions', 'dancers', 'coaches', 'judges', 'clubs'] as const) {
      expect(Object.fromEntries([...replay[name]].sort())).toEqual(Object.fromEntries([...m[name]].sort()));
    }
  });
});
