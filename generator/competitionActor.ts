import type { CompetitionDetails, EventData } from '../services/events/index.ts';
import { Actor, type EventBody } from './actor.ts';
import { categoryChanges, newCategory } from './categories.ts';
import { bannerPair, draftPlan, uniqueSlug, venue, type CompetitionPlan } from './competitionProfile.ts';
import { describeCompetition } from './description.ts';
import { DAY, HOUR, MINUTE, calendarDate, yearOf } from './time.ts';
import type { World } from './world.ts';

type CompetitionTaskKind =
  | 'draft'
  | 'addCategory'
  | 'publish'
  | 'unpublish'
  | 'change'
  | 'renameAttempt'
  | 'changeCategory'
  | 'removeCategory'
  | 'submitEntry'
  | 'changeEntry'
  | 'withdrawEntry'
  | 'complete'
  | 'results'
  | 'delete';

export class CompetitionActor extends Actor<CompetitionTaskKind> {
  private plan_: CompetitionPlan | null = null;
  private categories: string[] = [];
  private categoriesToAdd = 0;
  private displayOrder = 0;
  /**
   * Ids of the entries a later plan will change or withdraw (the plan's `ref` indexes this);
   * the others are never referred to again, so they are not kept.
   */
  private referencedEntries: (string | null)[] = [];
  private entriesLeft = 0;
  /** False once the stream of entries stopped (taken down meanwhile); republishing restarts it. */
  private entriesFlowing = false;
  private published = false;
  private everPublished = false;
  private completed = false;

  constructor(world: World, at: number) {
    super(world);
    this.plan(at, 'draft');
  }

  /** `ref`: for changeEntry and withdrawEntry, the index of the entry in `entries`. */
  protected act(kind: CompetitionTaskKind, ref: number, at: number): EventBody | null {
    const { random } = this.world;
    const plan = this.plan_;
    if (kind === 'draft' || plan === null) return this.draft(at);
    switch (kind) {
      case 'addCategory':
        return this.addCategory(at, plan);
      case 'publish':
        return this.publish(at, plan);
      case 'unpublish':
        if (!this.published || this.completed) return null;
        this.published = false;
        // Half come back after the correction they were taken down for.
        if (random.chance(0.55)) this.plan(at + random.int(1, 30) * DAY, 'publish');
        return { type: 'competition.unpublished', data: {} };
      case 'change':
        return { type: 'competition.details_changed', data: this.detailsChange(plan) };
      case 'renameAttempt':
        return this.renameAttempt(plan);
      case 'changeCategory': {
        const categoryId = this.categories.length > 0 ? random.pick(this.categories) : null;
        if (categoryId === null) return null;
        return {
          type: 'competition.category_changed',
          data: { categoryId, changes: categoryChanges(random, random.int(1, this.displayOrder)) },
        };
      }
      case 'removeCategory': {
        if (this.categories.length < 2) return null;
        const categoryId = random.pick(this.categories);
        this.categories = this.categories.filter((id) => id !== categoryId);
        return { type: 'competition.category_removed', data: { categoryId } };
      }
      case 'submitEntry':
        return this.submitEntry(at, plan);
      case 'changeEntry': {
        const entryId = this.takeEntry(ref);
        if (entryId === null || !this.published || this.completed) return null;
        return { type: 'competition.entry_changed', data: { entryId, categoryIds: this.pickCategories() } };
      }
      case 'withdrawEntry': {
        const entryId = this.takeEntry(ref);
        if (entryId === null || this.completed) return null;
        return { type: 'competition.entry_withdrawn', data: { entryId } };
      }
      case 'complete':
        if (!this.published) return null;
        this.completed = true;
        // Entries are history now; nothing refers to them any more.
        this.referencedEntries = [];
        return { type: 'competition.completed', data: {} };
      case 'results':
        if (!this.completed) return null;
        return { type: 'competition.details_changed', data: { resultsUrl: `https://results.dancefed.example/${plan.slug}/` } };
      case 'delete':
        this.dropPlans();
        return { type: 'competition.deleted', data: {} };
    }
  }

  private draft(at: number): EventBody {
    const { random } = this.world;
    const { plan, details } = draftPlan(random, this.world, at);
    this.plan_ = plan;
    this.categoriesToAdd = random.int(4, 24);
    this.plan(at + random.int(2, 30) * MINUTE, 'addCategory');
    const fate = random.float();
    if (fate < 0.05) {
      // A draft that is never published: edited a little, sometimes thrown away.
      if (random.chance(0.6)) this.plan(at + random.int(1, 40) * DAY, 'renameAttempt');
      if (random.chance(0.4)) this.plan(at + random.int(41, 200) * DAY, 'delete');
    } else {
      this.plan(at + random.int(1, 21) * DAY + random.int(0, 23) * HOUR, 'publish');
    }
    return { type: 'competition.drafted', data: details };
  }

  private addCategory(at: number, plan: CompetitionPlan): EventBody {
    const { random } = this.world;
    this.categoriesToAdd--;
    if (this.categoriesToAdd > 0) this.plan(at + random.int(1, 12) * MINUTE, 'addCategory');
    const id = random.uuid();
    this.categories.push(id);
    this.displayOrder++;
    return { type: 'competition.category_added', data: { category: newCategory(random, id, this.displayOrder, yearOf(plan.start)) } };
  }

  private publish(at: number, plan: CompetitionPlan): EventBody | null {
    if (this.published || this.completed) return null;
    this.published = true;
    if (!this.everPublished) {
      this.everPublished = true;
      this.planLifetime(at, plan);
    } else if (this.entriesLeft > 0 && !this.entriesFlowing) {
      this.entriesFlowing = true;
      this.plan(at + HOUR, 'submitEntry');
    }
    return { type: 'competition.published', data: {} };
  }

  /** Everything that happens to a published competition, planned when it is first published. */
  private planLifetime(at: number, plan: CompetitionPlan): void {
    const { random } = this.world;
    const between = (from: number, to: number): number => from + random.float() * Math.max(to - from, HOUR);
    const { registration, start, end } = plan;
    if (registration.status === 'open' && registration.externalUrl === null) {
      const size = Math.round(plan.type.entries * (0.3 + random.float() * 1.4));
      this.entriesLeft = Math.min(size, registration.maxEntries ?? size);
      const opens = Math.max(at + HOUR, plan.opensAt ?? at);
      this.entriesFlowing = true;
      this.plan(opens + random.int(0, 48) * HOUR, 'submitEntry');
    }
    for (
      let n = random.weighted([
        [0, 30],
        [1, 35],
        [2, 20],
        [3, 10],
        [4, 5],
      ] as const);
      n > 0;
      n--
    ) {
      this.plan(between(at, start), 'change');
    }
    // The write side accepts a new slug after publication but the read side keeps the old one.
    if (random.chance(0.15)) this.plan(between(at, start), 'renameAttempt');
    if (random.chance(0.15)) this.categoriesToAdd = random.int(1, 3);
    if (this.categoriesToAdd > 0) this.plan(between(at, start), 'addCategory');
    for (let n = random.chance(0.3) ? random.int(1, 3) : 0; n > 0; n--) this.plan(between(at, start), 'changeCategory');
    if (random.chance(0.15)) this.plan(between(at, start), 'removeCategory');
    if (random.chance(0.05)) this.plan(between(at, start), 'unpublish');
    if (random.chance(0.02)) this.plan(between(at, end + 60 * DAY), 'delete');
    // A few past competitions are never closed by their organiser.
    if (random.chance(0.94)) {
      const completedAt = end + DAY + random.int(2, 60) * HOUR;
      this.plan(completedAt, 'complete');
      if (random.chance(0.65)) this.plan(completedAt + random.int(1, 10) * DAY, 'results');
    }
  }

  private submitEntry(at: number, plan: CompetitionPlan): EventBody | null {
    const { random } = this.world;
    const closes = Math.min(plan.deadline === null ? plan.start : plan.deadline + DAY - MINUTE, plan.start - HOUR);
    if (!this.published || this.completed || this.entriesLeft <= 0 || at > closes) {
      this.entriesFlowing = false;
      return null;
    }
    this.entriesLeft--;
    if (this.entriesLeft > 0) {
      const meanGap = Math.max((closes - at) / (this.entriesLeft + 1), MINUTE);
      this.plan(at + MINUTE + random.exponential(meanGap), 'submitEntry');
    }
    if (this.categories.length === 0) return null;
    const entryId = random.uuid();
    const index = this.referencedEntries.length;
    const roll = random.float();
    if (roll < 0.1) this.plan(at + random.float() * (closes - at) + MINUTE, 'changeEntry', index);
    else if (roll < 0.17) this.plan(at + random.float() * (plan.start - at) + MINUTE, 'withdrawEntry', index);
    if (roll < 0.17) this.referencedEntries.push(entryId);
    return { type: 'competition.entry_submitted', data: { entryId, categoryIds: this.pickCategories() } };
  }

  /** The id of a referenced entry, forgotten once its one later plan has used it. */
  private takeEntry(index: number): string | null {
    const entryId = this.referencedEntries[index] ?? null;
    if (entryId !== null) this.referencedEntries[index] = null;
    return entryId;
  }

  private pickCategories(): string[] {
    const { random } = this.world;
    const count = random.weighted([
      [1, 55],
      [2, 30],
      [3, 10],
      [4, 5],
    ] as const);
    const picked = random.sample(this.categories, count);
    return picked.length > 0 ? picked : this.categories.slice(0, 1);
  }

  private detailsChange(plan: CompetitionPlan): EventData<'competition.details_changed'> {
    const { random } = this.world;
    const { registration } = plan;
    return random.weighted<() => Partial<CompetitionDetails>>([
      [
        () => ({
          descriptionFormatted: describeCompetition({
            random,
            name: plan.name,
            city: plan.city,
            venue: plan.venueName,
            start: plan.start,
            end: plan.end,
            deadline: plan.deadline,
          }),
        }),
        3,
      ],
      [
        () => ({
          registration: { ...registration, deadline: plan.deadline === null ? null : calendarDate(plan.deadline + random.int(1, 3) * DAY) },
        }),
        2,
      ],
      [() => ({ registration: { ...registration, maxEntries: random.int(10, 60) * 25 } }), 1],
      [() => ({ banner: bannerPair(random) }), 2],
      [() => ({ media: { entryForm: `https://media.dancefed.example/competitions/${random.token(12)}/entry-form-v2.pdf` } }), 1],
      [() => ({ location: venue(random, plan.placeIndex, plan.city) }), 1],
      [() => ({ shortName: plan.shortName.toUpperCase() }), 1],
    ])();
  }

  private renameAttempt(plan: CompetitionPlan): EventBody {
    const name = `${plan.name} (${this.world.random.pick(['moved', 'new date', 'extended', 'Ltd.'])})`;
    // Before publication the new slug is taken; after it the read side ignores it.
    const slug = uniqueSlug(this.world, name);
    if (!this.everPublished) this.plan_ = { ...plan, slug, name };
    return { type: 'competition.details_changed', data: { slug, name } };
  }
}
