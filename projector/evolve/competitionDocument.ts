import { addDays, startOfDay } from '../../services/calendar/index.ts';
import type { CategoryDocument, CompetitionDocument } from '../../services/readModel/documents.ts';
import {
  countryKeys,
  foldSearchText,
  nameKey,
  resolveRegistrationState,
  searchedDescription,
  searchTokens,
} from '../../services/readModel/index.ts';
import { startsOf } from './competitionEntries.ts';
import type { CompetitionWithCategories, StoredCompetitionState } from './competitionState.ts';
import type { ProjectionConfig } from './types.ts';

type PublicView = Omit<CompetitionDocument, '_id' | 'updatedAt' | 'q' | 's' | 'nextDueAt' | 'removal'>;

/**
 * Category documents with their startsCount (entries naming their id, kept by delta), by
 * displayOrder then order added.
 */
function categoryDocuments(state: CompetitionWithCategories): CategoryDocument[] {
  return Object.entries(state.categories)
    .flatMap(([id, categories]) => categories.map(({ seq, category }) => ({ seq, category, n: startsOf(state, id).n })))
    .sort((a, b) => a.category.displayOrder - b.category.displayOrder || a.seq - b.seq)
    .map(({ category, n }) => ({
      id: category.id,
      name: category.name,
      entryType: category.entryType,
      style: category.style,
      ageGroup: category.ageGroup,
      birthYearRange: category.birthYearRange,
      participantDivision: category.participantDivision,
      level: category.level,
      dances: [...category.dances],
      displayOrder: category.displayOrder,
      startsCount: n,
    }));
}

/**
 * What the API returns for the competition, without updatedAt and without `registration.state`,
 * which the API resolves on the request's calendar day (the stored copy would trail midnight by
 * a clock sweep and was never read); null before drafted. The state's inputs (status,
 * registration status, opensAt, deadline) are all here, so an event that changes the state
 * changes this view.
 */
export function competitionPublicView(state: CompetitionWithCategories): PublicView | null {
  const d = state.details;
  if (d === null || state.createdAt === null) return null;
  const categories = categoryDocuments(state);
  const label = [d.location.city, d.location.country].filter((part) => part !== null).join(', ');
  return {
    id: state.id,
    slug: d.slug,
    name: d.name,
    shortName: d.shortName,
    description: state.description,
    descriptionFormatted: d.descriptionFormatted,
    status: state.status,
    type: d.type === null ? null : { code: d.type.code, label: d.type.label },
    organizer: d.organizer === null ? null : { ...d.organizer },
    resultsUrl: d.resultsUrl,
    dates: { start: d.dates.start, end: d.dates.end },
    location: { ...d.location, label: label === '' ? null : label },
    registration: {
      status: d.registration.status,
      opensAt: d.registration.opensAt,
      deadline: d.registration.deadline,
      maxEntries: d.registration.maxEntries,
      entriesCount: state.entriesCount,
      startsCount: state.startsCount,
    },
    banner: {
      horizontal: d.banner.horizontal === null ? null : { ...d.banner.horizontal },
      vertical: d.banner.vertical === null ? null : { ...d.banner.vertical },
    },
    media: { entryForm: d.media.entryForm },
    categories,
    createdAt: state.createdAt,
    visible: state.lifecycle === 'published',
  };
}

/** Instants (start of a day in the zone) at which registration.state changes with the current details. */
export function registrationStateChanges(state: StoredCompetitionState, zone: string): string[] {
  const d = state.details;
  if (d === null) return [];
  const input = { status: state.status, registration: d.registration };
  const days = [d.registration.opensAt, d.registration.deadline === null ? null : addDays(d.registration.deadline, 1)];
  return days
    .filter((day): day is string => day !== null)
    .filter((day) => resolveRegistrationState(input, addDays(day, -1)) !== resolveRegistrationState(input, day))
    .map((day) => startOfDay(day, zone).toISOString())
    .sort();
}

/**
 * The competitions document at `now`; null before competition.drafted. Invisible (drafts,
 * unpublished, deleted) documents come back with `visible: false`: the writer may store or
 * delete them, the API never reads them.
 */
export function competitionReadDocument(state: CompetitionWithCategories, now: Date, config: ProjectionConfig): CompetitionDocument | null {
  const at = now.toISOString();
  const view = competitionPublicView(state);
  const d = state.details;
  if (view === null || d === null) return null;
  const changes = registrationStateChanges(state, config.zone);
  const changedAt = state.changedAt ?? view.createdAt;
  const clockChanges = changes.filter((t) => t > changedAt && t <= at);
  const updatedAt = clockChanges[clockChanges.length - 1] ?? changedAt;
  const next = view.visible ? changes.find((t) => t > at) : undefined;
  const { location } = d;
  return {
    _id: state.id,
    ...view,
    updatedAt,
    // `?? null`: a state stored before removals were kept has no `removal` field.
    removal: state.removal ?? null,
    s: searchTokens([d.name, location.city, location.country, location.venueName, searchedDescription(state.description)]),
    q: {
      name: nameKey(d.name),
      city: location.city === null ? null : foldSearchText(location.city),
      country: countryKeys(location.country, location.countryCode),
      registrationExternalUrl: d.registration.externalUrl,
    },
    nextDueAt: next === undefined ? null : new Date(next),
  };
}

/**
 * What entry events change in a competition's read document, as a patch of the stored one: its
 * registration counts, its instants and the startsCount of the categories under `categoryIds`
 * (every category with one of those ids shows the id's starts). Built from the state without its
 * categories, so it costs what the events touched; null before drafted (no document to patch).
 */
export interface CompetitionCountsPatch {
  set: Pick<CompetitionDocument, 'registration' | 'updatedAt' | 'nextDueAt'>;
  startsCounts: Map<string, number>;
}

export function competitionCountsPatch(
  state: CompetitionWithCategories,
  categoryIds: Iterable<string>,
  now: Date,
  config: ProjectionConfig,
): CompetitionCountsPatch | null {
  const doc = competitionReadDocument({ ...state, categories: {} }, now, config);
  if (doc === null) return null;
  const startsCounts = new Map<string, number>();
  for (const id of categoryIds) {
    const of = startsOf(state, id);
    if (of.k > 0) startsCounts.set(id, of.n);
  }
  return { set: { registration: doc.registration, updatedAt: doc.updatedAt, nextDueAt: doc.nextDueAt }, startsCounts };
}
