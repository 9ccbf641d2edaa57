import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, type DomainEvent, type EventOfType } from '../services/events/index.ts';
import { COMPETITION_TYPES } from './competitionProfile.ts';
import { createHistory } from './createHistory.ts';

// What the demo data must show, checked on the default 20,000-event history: every event type,
// every state the API distinguishes, and references that point at things that exist.

const NOW = new Date('2026-11-23T00:00:00Z');
const TODAY = '2026-11-23';
let events: DomainEvent[] = [];

const ofType = <T extends DomainEvent['type']>(type: T): EventOfType<T>[] => events.filter((e): e is EventOfType<T> => e.type === type);

/** Events grouped by aggregate, in the order they were generated. */
function byAggregate(): Map<string, DomainEvent[]> {
  const groups = new Map<string, DomainEvent[]>();
  for (const event of events) {
    const group = groups.get(event.aggregateId);
    if (group === undefined) groups.set(event.aggregateId, [event]);
    else group.push(event);
  }
  return groups;
}

beforeAll(() => {
  events = [...createHistory({ seed: 42, events: 20_000, now: NOW })];
});

describe('a 20,000-event history (seed 42)', () => {
  it('holds every event type of the contract', () => {
    const seen = new Set(events.map((e) => e.type));
    expect(EVENT_TYPES.filter((type) => !seen.has(type))).toEqual([]);
  });

  it('holds competitions in every state, of every type', () => {
    const groups = [...byAggregate().values()].filter((g) => g[0]?.type === 'competition.drafted');
    const types = (g: DomainEvent[]): string[] => g.map((e) => e.type);
    expect(groups.some((g) => !types(g).includes('competition.published') && !types(g).includes('competition.deleted'))).toBe(true);
    expect(groups.some((g) => types(g).includes('competition.completed'))).toBe(true);
    expect(groups.some((g) => types(g).includes('competition.deleted'))).toBe(true);
    const republished = groups.some((g) => {
      const unpublishedAt = types(g).indexOf('competition.unpublished');
      return unpublishedAt >= 0 && types(g).indexOf('competition.published', unpublishedAt) > unpublishedAt;
    });
    expect(republished).toBe(true);
    const slugChangedAfterPublication = groups.some((g) => {
      const publishedAt = types(g).indexOf('competition.published');
      return publishedAt >= 0 && g.slice(publishedAt).some((e) => e.type === 'competition.details_changed' && 'slug' in e.data);
    });
    expect(slugChangedAfterPublication).toBe(true);
    const typeCodes = new Set(ofType('competition.drafted').map((e) => e.data.type?.code ?? null));
    expect([...typeCodes].sort()).toEqual([...COMPETITION_TYPES.map((t) => t.code), null].sort());
  });

  it('holds registration windows in the past, open now and not yet open, and every kind of field value', () => {
    const drafts = ofType('competition.drafted').map((e) => e.data);
    const registrations = drafts.map((d) => d.registration);
    expect(registrations.some((r) => r.deadline !== null && r.deadline < TODAY)).toBe(true);
    expect(registrations.some((r) => r.status === 'open' && (r.opensAt ?? '') <= TODAY && (r.deadline ?? '9999') >= TODAY)).toBe(true);
    expect(registrations.some((r) => r.opensAt !== null && r.opensAt > TODAY)).toBe(true);
    expect(registrations.some((r) => r.opensAt === null)).toBe(true);
    expect(registrations.some((r) => r.deadline === null)).toBe(true);
    expect(registrations.some((r) => r.status === 'closed')).toBe(true);
    const sides = drafts.flatMap((d) => [d.banner.horizontal, d.banner.vertical]);
    expect(sides.some((side) => side === null)).toBe(true);
    expect(sides.some((side) => side !== null && Object.keys(side).join() === 'default')).toBe(true);
    expect(sides.some((side) => side !== null && Object.keys(side).every((k) => /^\d+$/.test(k)))).toBe(true);
    const markdown = drafts.map((d) => d.descriptionFormatted);
    expect(markdown.some((m) => m === null)).toBe(true);
    for (const feature of [/^#{2,3} /m, /^- /m, /^\d+\. /m, /\[[^\]]+\]\(https?:/, /\*\*[^*]+\*\*/, /(?<!\*)\*[^*\s][^*]*\*(?!\*)/]) {
      expect(
        markdown.some((m) => m !== null && feature.test(m)),
        String(feature),
      ).toBe(true);
    }
    expect(drafts.every((d) => d.resultsUrl === null)).toBe(true);
    expect(ofType('competition.details_changed').some((e) => typeof e.data.resultsUrl === 'string')).toBe(true);
    const categoriesPerEntry = new Set(ofType('competition.entry_submitted').map((e) => e.data.categoryIds.length));
    expect([...categoriesPerEntry].sort()).toEqual([1, 2, 3, 4]);
  });

  it('holds persons with one to three roles, payments, lapses, reinstatements and exceptions', () => {
    const rolesPerPerson = new Map<string, number>();
    for (const e of ofType('person.role_granted')) rolesPerPerson.set(e.aggregateId, (rolesPerPerson.get(e.aggregateId) ?? 0) + 1);
    expect(new Set(rolesPerPerson.values())).toEqual(new Set([1, 2, 3]));
    expect(new Set(ofType('person.membership_paid').map((e) => e.data.status))).toEqual(new Set(['ACTIVE', 'LIMITED']));
    // The projector's clock must have something to archive: a paid term whose registryUntil passed.
    const lastRegistryUntil = new Map<string, string | null>();
    const reinstatedAfterLapse: string[] = [];
    for (const e of events) {
      if (e.type === 'person.membership_paid' || e.type === 'person.role_granted' || e.type === 'person.role_reinstated') {
        const key = `${e.aggregateId}/${e.data.role}`;
        const before = lastRegistryUntil.get(key);
        if (e.type === 'person.role_reinstated' && typeof before === 'string' && before < e.occurredAt.slice(0, 10))
          reinstatedAfterLapse.push(key);
        lastRegistryUntil.set(key, e.data.registryUntil);
      }
    }
    expect([...lastRegistryUntil.values()].some((until) => until !== null && until < TODAY)).toBe(true);
    expect(reinstatedAfterLapse.length).toBeGreaterThan(0);
    const exceptions = ofType('person.exception_placed').map((e) => e.data);
    expect(new Set(exceptions.map((x) => x.registryState))).toEqual(new Set(['REGISTRY', 'ARCHIVE']));
    expect(exceptions.some((x) => x.until < NOW.toISOString())).toBe(true);
    expect(exceptions.some((x) => x.until > NOW.toISOString())).toBe(true);
    expect(new Set(ofType('person.club_joined').map((e) => e.data.role))).toEqual(new Set(['dancer', 'coach']));
  });

  it('holds clubs with branches elsewhere, clubs nobody joins and coaches nobody is assigned to', () => {
    const registered = ofType('club.registered');
    const branchElsewhere = registered.some((e) => {
      const main = e.data.locations.find((l) => l.type === 'main');
      return e.data.locations.some((l) => l.type === 'branch' && main !== undefined && l.city !== main.city);
    });
    expect(branchElsewhere).toBe(true);
    const joined = new Set(ofType('person.club_joined').map((e) => e.data.clubId));
    expect(registered.some((e) => !joined.has(e.aggregateId))).toBe(true);
    const assigned = new Set(ofType('person.coach_assigned').map((e) => e.data.coachId));
    expect(ofType('person.role_granted').some((e) => e.data.role === 'coach' && !assigned.has(e.aggregateId))).toBe(true);
  });

  it('refers only to aggregates, categories, entries, links and locations that exist at that moment', () => {
    const clubs = new Set<string>();
    const coaches = new Set<string>();
    const categories = new Map<string, Set<string>>();
    const entries = new Map<string, Set<string>>();
    const clubLinks = new Set<string>();
    const locations = new Map<string, Set<string>>();
    const problems: string[] = [];
    const need = (ok: boolean, e: DomainEvent): void => {
      if (!ok) problems.push(`${e.type} ${e.aggregateId} v${e.aggregateVersion}`);
    };
    for (const e of events) {
      const id = e.aggregateId;
      switch (e.type) {
        case 'club.registered':
          clubs.add(id);
          locations.set(id, new Set(e.data.locations.map((l) => l.id)));
          break;
        case 'club.location_added':
          locations.get(id)?.add(e.data.location.id);
          break;
        case 'club.location_changed':
        case 'club.main_location_set':
          need(locations.get(id)?.has(e.data.locationId) === true, e);
          break;
        case 'club.location_removed':
          need(locations.get(id)?.delete(e.data.locationId) === true, e);
          break;
        case 'person.role_granted':
          if (e.data.role === 'coach') coaches.add(id);
          break;
        case 'person.coach_assigned':
          need(coaches.has(e.data.coachId) && e.data.coachId !== id, e);
          break;
        case 'person.club_joined':
          need(clubs.has(e.data.clubId), e);
          clubLinks.add(`${id}/${e.data.role}/${e.data.clubId}`);
          break;
        case 'person.club_left':
          need(clubLinks.has(`${id}/${e.data.role}/${e.data.clubId}`), e);
          break;
        case 'competition.category_added':
          categories.set(id, (categories.get(id) ?? new Set()).add(e.data.category.id));
          break;
        case 'competition.category_changed':
          need(categories.get(id)?.has(e.data.categoryId) === true, e);
          break;
        case 'competition.category_removed':
          need(categories.get(id)?.delete(e.data.categoryId) === true, e);
          break;
        case 'competition.entry_submitted':
        case 'competition.entry_changed':
          need(
            e.data.categoryIds.every((c) => categories.get(id)?.has(c) === true),
            e,
          );
          if (e.type === 'competition.entry_submitted') entries.set(id, (entries.get(id) ?? new Set()).add(e.data.entryId));
          else need(entries.get(id)?.has(e.data.entryId) === true, e);
          break;
        case 'competition.entry_withdrawn':
          need(entries.get(id)?.delete(e.data.entryId) === true, e);
          break;
        default:
          break;
      }
    }
    expect(problems).toEqual([]);
  });
});
