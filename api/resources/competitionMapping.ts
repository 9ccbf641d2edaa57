import { Type } from '@sinclair/typebox';
import { Category } from '../../schemas/api/category.ts';
import { Competition, CompetitionRegistration } from '../../schemas/api/competition.ts';
import type { CompetitionDocument } from '../../services/readModel/documents.ts';
import { resolveRegistrationState } from '../../services/readModel/index.ts';
import { segment, type ApiUrls } from './apiUrls.ts';
import type { Projected } from './projection.ts';
import { fieldsOf, inSchemaOrder, recordOf } from './schemaRecord.ts';

/** The response as stored: all but what a request computes (`categories` when asked for, `links`). */
const StoredResponse = Type.Omit(Competition, ['categories', 'links']);

/** The stored fields a competition response is made from (`q.registrationExternalUrl` for the link). */
export const COMPETITION_FIELDS = [...fieldsOf(StoredResponse), 'q.registrationExternalUrl'] as const;

/** A competition as a response reads it; `categories` only when they were loaded. */
export type StoredCompetition = Projected<CompetitionDocument, (typeof COMPETITION_FIELDS)[number]> &
  Partial<Pick<CompetitionDocument, 'categories'>>;

export interface CompetitionExtras {
  /** `categories` and `registration.startsCount`. */
  readonly categories: boolean;
  /** `registration.entriesCount`. */
  readonly entriesCount: boolean;
}

export const toCategory = recordOf(Category);
const toRegistration = inSchemaOrder(CompetitionRegistration);
const toResponse = inSchemaOrder(Competition);

/**
 * The public competition: its stored fields beside what the request computes. `registration.state`
 * is resolved on the request's calendar day, the same day `registrationOpen` filters on, so a
 * body never contradicts the filter that found it (the stored value may trail midnight by one
 * projector clock sweep).
 */
export function toCompetition(doc: StoredCompetition, today: string, urls: ApiUrls, extras: CompetitionExtras): Competition {
  const { registration, categories, q, ...stored } = doc;
  const { entriesCount, startsCount, ...plainRegistration } = registration;
  const web = urls.site(`/competitions/${segment(doc.slug)}`);
  return toResponse({
    ...stored,
    registration: toRegistration({
      ...plainRegistration,
      state: resolveRegistrationState({ status: doc.status, registration }, today),
      ...(extras.entriesCount ? { entriesCount } : {}),
      ...(extras.categories ? { startsCount } : {}),
    }),
    ...(extras.categories ? { categories: (categories ?? []).map(toCategory) } : {}),
    links: {
      self: urls.api(`/competitions/${doc.id}`),
      categories: urls.api(`/competitions/${doc.id}/categories`),
      web,
      registration: q?.registrationExternalUrl ?? `${web}/registration`,
    },
  });
}
