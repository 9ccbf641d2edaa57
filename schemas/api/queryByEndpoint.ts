import type { CompetitionsQuery } from './competitionsQuery.ts';
import type { CompetitionsCalendarQuery } from './competitionsCalendarQuery.ts';
import type { CompetitionRemovalsQuery } from './competitionRemovals.ts';
import type { CompetitionCategoriesQuery } from './competitionCategoriesQuery.ts';
import type { ClubsQuery, CoachesQuery, DancersQuery, JudgesQuery } from './registryQueries.ts';
import type { NoQuery } from './noQuery.ts';
import type { ChangesQuery } from './changes.ts';

/** The parsed query type of every endpoint, defaults filled in. */
export interface QueryByEndpoint {
  competitions: CompetitionsQuery;
  competitionsCalendar: CompetitionsCalendarQuery;
  competitionRemovals: CompetitionRemovalsQuery;
  competition: NoQuery;
  competitionCategories: CompetitionCategoriesQuery;
  filters: NoQuery;
  dancers: DancersQuery;
  coaches: CoachesQuery;
  judges: JudgesQuery;
  clubs: ClubsQuery;
  club: NoQuery;
  registryFilters: NoQuery;
  changes: ChangesQuery;
  openApiDocument: NoQuery;
  root: NoQuery;
  referencePage: NoQuery;
  referencePageAsset: NoQuery;
}
