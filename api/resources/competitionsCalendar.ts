import { CALENDAR_FEED_MAX_EVENTS, type CompetitionsCalendarQuery } from '../../schemas/api/competitionsCalendarQuery.ts';
import { CALENDAR_EVENT_FIELDS, competitionCalendar } from './competitionCalendar.ts';
import { competitionListQuery } from './competitions.ts';
import { RawBody } from './rawBody.ts';
import { readPage } from './readPage.ts';
import type { ResourceRequest } from './resourceRequest.ts';

export const CALENDAR_MEDIA_TYPE = 'text/calendar; charset=utf-8';

/**
 * `GET /competitions.ics`: the competitions `/competitions` finds for the same filters, through
 * the same filter, index plan and sort, as the first CALENDAR_FEED_MAX_EVENTS of one page.
 */
export async function competitionsCalendar(req: ResourceRequest<CompetitionsCalendarQuery>): Promise<RawBody> {
  const { query } = req;
  const listing = competitionListQuery({ ...query, page: 1, limit: CALENDAR_FEED_MAX_EVENTS }, req.today, req.view.format);
  const { docs, total } = await readPage(req.view, 'competitions', listing, {
    fields: CALENDAR_EVENT_FIELDS,
    page: 1,
    limit: CALENDAR_FEED_MAX_EVENTS,
  });
  const text = competitionCalendar(
    {
      competitions: docs,
      matched: total,
      selfUrl: req.urls.api('/competitions.ics', query),
      order: `${query.sort} ${query.order}`,
    },
    req.urls,
  );
  return new RawBody(CALENDAR_MEDIA_TYPE, Buffer.from(text, 'utf8'));
}
