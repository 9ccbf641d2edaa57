import type { ReadModelLayout } from '../../services/readModel/readModelLayout.ts';
import { servedLayout } from './servedLayout.ts';
import type { CompetitionsQuery } from '../../schemas/api/competitionsQuery.ts';
import { canonicalInstant, periodFilter } from '../../services/readModel/index.ts';
import { FilterBuilder, type ListingQuery } from './filterBuilder.ts';
import { COMPETITION_FIELDS, toCompetition, type StoredCompetition } from './competitionMapping.ts';
import type { StreamedBody } from '../http/streamedBody.ts';
import { listingPage } from './listingPage.ts';
import type { ResourceRequest } from './resourceRequest.ts';

/** `registration.state == open` on `today`, in the terms resolveRegistrationState uses. */
function registrationOpenClauses(open: boolean, today: string) {
  if (open) {
    return [
      { status: 'open', 'registration.status': 'open' },
      { $or: [{ 'registration.opensAt': null }, { 'registration.opensAt': { $lte: today } }] },
      { $or: [{ 'registration.deadline': null }, { 'registration.deadline': { $gte: today } }] },
    ];
  }
  return [
    {
      $or: [
        { status: { $ne: 'open' } },
        { 'registration.status': { $ne: 'open' } },
        { 'registration.opensAt': { $gt: today } },
        { 'registration.deadline': { $lt: today } },
      ],
    },
  ];
}

/** Filter and plan of `GET /competitions` on a generation of `layout`; only published competitions (`visible`) ever match. */
export function competitionListQuery(query: CompetitionsQuery, today: string, layout: ReadModelLayout): ListingQuery {
  return (
    new FilterBuilder({ visible: true }, layout)
      .addDeclared('competitions', query)
      .add('registrationOpen', query.registrationOpen, (v) => registrationOpenClauses(v, today))
      .add('period', query.period, (v) => periodFilter(v, today))
      // Overlap with [dateFrom, dateTo]: starts on or before dateTo and ends on or after dateFrom.
      .add('dateFrom', query.dateFrom, (v) => ({ 'dates.end': { $gte: v } }))
      .add('dateTo', query.dateTo, (v) => ({ 'dates.start': { $lte: v } }))
      .add('updatedSince', query.updatedSince, (v) => ({ updatedAt: { $gte: canonicalInstant(v) } }))
      .build('competitions', query.sort, query.order)
  );
}

export function listCompetitions(req: ResourceRequest<CompetitionsQuery>): StreamedBody {
  const { query } = req;
  const include = new Set(query.include ?? []);
  const extras = { categories: include.has('categories'), entriesCount: include.has('entriesCount') };
  const listing = competitionListQuery(query, req.today, servedLayout(req.view));
  const toItem = (doc: StoredCompetition) => toCompetition(doc, req.today, req.urls, extras);
  return extras.categories
    ? listingPage(req, 'competitions', listing, [...COMPETITION_FIELDS, 'categories'], toItem)
    : listingPage(req, 'competitions', listing, COMPETITION_FIELDS, toItem);
}
