import { Category } from '../../schemas/api/category.ts';
import type { Competition } from '../../schemas/api/competition.ts';
import type { CategoryDocument, CompetitionDocument } from '../../services/readModel/documents.ts';
import { resolveRegistrationState } from '../../services/readModel/index.ts';
import { segment, type ApiUrls } from './apiUrls.ts';
import { recordOf } from './schemaRecord.ts';

/** The stored fields a competition response is made from (`q.registrationExternalUrl` for the link). */
export const COMPETITION_FIELDS = [
  'id',
  'slug',
  'name',
  'shortName',
  'description',
  'descriptionFormatted',
  'status',
  'type',
  'organizer',
  'resultsUrl',
  'dates',
  'location',
  'registration',
  'banner',
  'media',
  'createdAt',
  'updatedAt',
  'q.registrationExternalUrl',
] as const;

export type StoredCompetition = Omit<CompetitionDocument, '_id' | 'q' | 'visible' | 'nextDueAt' | 'categories'> & {
  categories?: CategoryDocument[];
  q?: { registrationExternalUrl?: string | null };
};

export interface CompetitionExtras {
  /** `categories` and `registration.startsCount`. */
  readonly categories: boolean;
  /** `registration.entriesCount`. */
  readonly entriesCount: boolean;
}

export const toCategory = recordOf(Category);

/**
 * The public competition. `registration.state` is resolved on the request's calendar day, the
 * same day `registrationOpen` filters on, so a body never contradicts the filter that found it
 * (the stored value may trail midnight by one projector clock sweep).
 */
export function toCompetition(doc: StoredCompetition, today: string, urls: ApiUrls, extras: CompetitionExtras): Competition {
  const r = doc.registration;
  const web = urls.site(`/competitions/${segment(doc.slug)}`);
  return {
    id: doc.id,
    slug: doc.slug,
    name: doc.name,
    shortName: doc.shortName,
    description: doc.description,
    descriptionFormatted: doc.descriptionFormatted,
    status: doc.status,
    type: doc.type,
    organizer: doc.organizer,
    resultsUrl: doc.resultsUrl,
    dates: doc.dates,
    location: doc.location,
    registration: {
      status: r.status,
      state: resolveRegistrationState({ status: doc.status, registration: r }, today),
      opensAt: r.opensAt,
      deadline: r.deadline,
      maxEntries: r.maxEntries,
      ...(extras.entriesCount ? { entriesCount: r.entriesCount } : {}),
      ...(extras.categories ? { startsCount: r.startsCount } : {}),
    },
    banner: doc.banner,
    media: doc.media,
    ...(extras.categories ? { categories: (doc.categories ?? []).map(toCategory) } : {}),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    links: {
      self: urls.api(`/competitions/${doc.id}`),
      categories: urls.api(`/competitions/${doc.id}/categories`),
      web,
      registration: doc.q?.registrationExternalUrl ?? `${web}/registration`,
    },
  };
}
