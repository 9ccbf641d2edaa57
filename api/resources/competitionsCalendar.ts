import { servedLayout } from './servedLayout.ts';
import { CALENDAR_FEED_MAX_EVENTS, type CompetitionsCalendarQuery } from '../../schemas/api/competitionsCalendarQuery.ts';
import { StreamedBody } from '../http/streamedBody.ts';
import { CALENDAR_EVENT_FIELDS, calendarChunks } from './competitionCalendar.ts';
import { competitionListQuery } from './competitions.ts';
import { streamPage } from './readPage.ts';
import type { ResourceRequest } from './resourceRequest.ts';

export const CALENDAR_MEDIA_TYPE = 'text/calendar; charset=utf-8';

/**
 * `GET /competitions.ics`: the competitions `/competitions` finds for the same filters, through
 * the same filter, index plan and sort, as the first CALENDAR_FEED_MAX_EVENTS of one page,
 * made event by event from the cursor (sent whole or streamed by size).
 */
export function competitionsCalendar(req: ResourceRequest<CompetitionsCalendarQuery>): StreamedBody {
  const { query } = req;
  const listing = competitionListQuery({ ...query, page: 1, limit: CALENDAR_FEED_MAX_EVENTS }, req.today, servedLayout(req.view));
  const { docs, total } = streamPage(req.view, 'competitions', listing, {
    fields: CALENDAR_EVENT_FIELDS,
    page: 1,
    limit: CALENDAR_FEED_MAX_EVENTS,
  });
  async function* feed(): AsyncGenerator<string> {
    // The header says how many matched, so the count comes first; the documents follow it.
    const matched = await total;
    yield* calendarChunks(
      {
        competitions: docs,
        matched,
        shown: Math.min(matched, CALENDAR_FEED_MAX_EVENTS),
        selfUrl: req.urls.api('/competitions.ics', query),
        order: `${query.sort} ${query.order}`,
      },
      req.urls,
    );
  }
  return new StreamedBody(CALENDAR_MEDIA_TYPE, feed());
}
