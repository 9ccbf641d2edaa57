import { describe, expect, it } from 'vitest';
import type { CategoryDetails, CompetitionDetails } from '../../services/events/index.ts';
import { category } from '../../test/api/eventBuilders.ts';
import { deepFreeze } from '../../test/support/deepFreeze.ts';
import { exampleEvent } from '../../test/support/exampleEvents.ts';
import { eventStream, numberedUuid, uuid } from '../../test/support/testEvents.ts';
import {
  competitionReadDocument,
  evolveCompetition,
  initialCompetitionState,
  type CompetitionEvent,
  type CompetitionState,
} from './index.ts';

// The state keeps its counts by delta (and a category removal bumps an epoch instead of touching
// the entries). The oracle below is the plain rule: recount every entry naming each existing
// category, strip a removed category's id from every entry, and move updatedAt whenever the
// view differs before and after an event.

const config = { zone: 'UTC', bufferPeriodDays: 30 };
const CATEGORY_IDS = Array.from({ length: 6 }, (_, i) => numberedUuid('c0000000-0000-4000-8000-', i + 1));
const ENTRY_IDS = Array.from({ length: 10 }, (_, i) => numberedUuid('e0000000-0000-4000-8000-', i + 1));

function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((s / 2 ** 31) * n);
  };
}

/** A random story of category and entry events (and a few others) over small pools of ids. */
function story(seed: number, length: number): CompetitionEvent[] {
  const pick = random(seed);
  const s = eventStream(uuid());
  const at = (i: number): string => new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
  const details: CompetitionDetails = exampleEvent('competition.drafted').data;
  const events: CompetitionEvent[] = [s.next('competition.drafted', at(0), details)];
  const some = (): string[] => [...new Set(Array.from({ length: 1 + pick(3) }, () => CATEGORY_IDS[pick(CATEGORY_IDS.length)]!))];
  for (let i = 1; i < length; i++) {
    const roll = pick(100);
    const categoryId = CATEGORY_IDS[pick(CATEGORY_IDS.length)]!;
    const entryId = ENTRY_IDS[pick(ENTRY_IDS.length)]!;
    if (roll < 15) {
      const added: CategoryDetails = { ...category(pick(5), { displayOrder: pick(4) }), id: categoryId };
      events.push(s.next('competition.category_added', at(i), { category: added }));
    } else if (roll < 22) {
      const changes = pick(4) === 0 ? { id: CATEGORY_IDS[pick(CATEGORY_IDS.length)]! } : { displayOrder: pick(4), name: `N${pick(3)}` };
      events.push(s.next('competition.category_changed', at(i), { categoryId, changes }));
    } else if (roll < 30) events.push(s.next('competition.category_removed', at(i), { categoryId }));
    else if (roll < 55) events.push(s.next('competition.entry_submitted', at(i), { entryId, categoryIds: some() }));
    else if (roll < 75) events.push(s.next('competition.entry_changed', at(i), { entryId, categoryIds: some() }));
    else if (roll < 88) events.push(s.next('competition.entry_withdrawn', at(i), { entryId }));
    else if (roll < 92)
      events.push(
        s.next('competition.details_changed', at(i), {
          ...(pick(2) === 0 ? { name: `Open ${pick(3)}` } : {}),
          registration: { ...details.registration, externalUrl: `https://x.example/${pick(3)}` },
        }),
      );
    else if (roll < 95) events.push(s.next('competition.published', at(i), {}));
    else if (roll < 98) events.push(s.next('competition.unpublished', at(i), {}));
    else events.push(s.next('competition.completed', at(i), {}));
  }
  return events;
}

/** The plain rule: what the view shows of categories and counts, and when it last changed. */
function oracle(events: readonly CompetitionEvent[]) {
  let categories: CategoryDetails[] = [];
  const entries = new Map<string, string[]>();
  let name = '';
  let visible = false;
  let status = 'open';
  let updatedAt = '';
  const view = () => {
    const docs = categories
      .map((c, index) => ({ c, index }))
      .sort((a, b) => a.c.displayOrder - b.c.displayOrder || a.index - b.index)
      .map(({ c }) => ({
        id: c.id,
        name: c.name,
        displayOrder: c.displayOrder,
        startsCount: [...entries.values()].filter((ids) => ids.includes(c.id)).length,
      }));
    const startsCount = docs.reduce((sum, d) => sum + d.startsCount, 0);
    return { categories: docs, entriesCount: entries.size, startsCount, name, visible, status };
  };
  for (const event of events) {
    const before = JSON.stringify(view());
    switch (event.type) {
      case 'competition.drafted':
        name = event.data.name;
        break;
      case 'competition.details_changed':
        name = event.data.name ?? name;
        break;
      case 'competition.published':
        visible = true;
        break;
      case 'competition.unpublished':
        visible = false;
        break;
      case 'competition.completed':
        status = 'completed';
        break;
      case 'competition.category_added': {
        const index = categories.findIndex((c) => c.id === event.data.category.id);
        if (index >= 0) categories[index] = event.data.category;
        else categories.push(event.data.category);
        break;
      }
      case 'competition.category_changed': {
        const index = categories.findIndex((c) => c.id === event.data.categoryId);
        if (index >= 0) categories[index] = { ...categories[index]!, ...event.data.changes };
        break;
      }
      case 'competition.category_removed':
        if (categories.some((c) => c.id === event.data.categoryId)) {
          categories = categories.filter((c) => c.id !== event.data.categoryId);
          for (const [id, ids] of entries)
            entries.set(
              id,
              ids.filter((c) => c !== event.data.categoryId),
            );
        }
        break;
      case 'competition.entry_submitted':
      case 'competition.entry_changed':
        entries.set(event.data.entryId, event.data.categoryIds);
        break;
      case 'competition.entry_withdrawn':
        entries.delete(event.data.entryId);
        break;
    }
    if (JSON.stringify(view()) !== before || event.type === 'competition.drafted') updatedAt = new Date(event.occurredAt).toISOString();
  }
  return { ...view(), updatedAt };
}

function folded(events: readonly CompetitionEvent[]) {
  let state: CompetitionState = deepFreeze(initialCompetitionState(events[0]!.aggregateId));
  for (const event of events) state = deepFreeze(evolveCompetition(state, event, config).state);
  const doc = competitionReadDocument(state, new Date('2020-01-01T00:00:00Z'), config)!;
  return {
    categories: doc.categories.map((c) => ({ id: c.id, name: c.name, displayOrder: c.displayOrder, startsCount: c.startsCount })),
    entriesCount: doc.registration.entriesCount,
    startsCount: doc.registration.startsCount,
    name: doc.name,
    visible: doc.visible,
    status: doc.status,
    updatedAt: doc.updatedAt,
  };
}

describe('the counts kept by delta', () => {
  it('are the recounted ones, and updatedAt moves exactly when the view changes, in random stories', () => {
    for (let seed = 1; seed <= 120; seed++) {
      const events = story(seed, 80);
      expect(folded(events), `seed ${seed}`).toEqual(oracle(events));
    }
  }, 30_000);

  it('count an entry in a category named before the category was added, and not after a removal and a new addition', () => {
    const s = eventStream(uuid());
    const [first, second] = [category(1), category(2)];
    const events: CompetitionEvent[] = [
      s.next('competition.drafted', '2025-01-01T00:00:00Z', exampleEvent('competition.drafted').data),
      s.next('competition.entry_submitted', '2025-01-02T00:00:00Z', { entryId: ENTRY_IDS[0]!, categoryIds: [first.id, second.id] }),
      s.next('competition.category_added', '2025-01-03T00:00:00Z', { category: first }),
      s.next('competition.category_added', '2025-01-03T00:00:00Z', { category: second }),
    ];
    expect(folded(events)).toMatchObject({ startsCount: 2, categories: [{ startsCount: 1 }, { startsCount: 1 }] });
    const removed = [
      ...events,
      s.next('competition.category_removed', '2025-01-04T00:00:00Z', { categoryId: first.id }),
      s.next('competition.entry_submitted', '2025-01-05T00:00:00Z', { entryId: ENTRY_IDS[1]!, categoryIds: [first.id] }),
      s.next('competition.category_added', '2025-01-06T00:00:00Z', { category: first }),
    ];
    // The first entry's naming was stripped by the removal; the second named it while absent.
    expect(folded(removed)).toMatchObject({ entriesCount: 2, startsCount: 2, categories: [{ startsCount: 1 }, { startsCount: 1 }] });
    const withdrawn = [...removed, s.next('competition.entry_withdrawn', '2025-01-07T00:00:00Z', { entryId: ENTRY_IDS[0]! })];
    expect(folded(withdrawn)).toMatchObject({ entriesCount: 1, startsCount: 1, categories: [{ startsCount: 1 }, { startsCount: 0 }] });
  });
});
