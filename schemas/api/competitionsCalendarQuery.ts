import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { StringEnum } from './primitives.ts';
import { SORT_ORDERS } from '../enumValues.ts';
import { CompetitionsQuery } from './competitionsQuery.ts';
import type { WithDefaults } from './withDefaults.ts';

/**
 * Upper bound of events in one calendar feed. A feed is fetched whole by calendar apps on every
 * refresh (no pagination exists in iCalendar), so it is capped; ~1,000 events is ~0.5 MB.
 */
export const CALENDAR_FEED_MAX_EVENTS = 1000;

const FEED_NOT_PAGINATED = `not accepted on /competitions.ics (the feed is not paginated: it holds the first ${CALENDAR_FEED_MAX_EVENTS.toLocaleString('en')} matching competitions in the requested order)`;

/** `/competitions` parameters the feed refuses with a 400 naming them, and why. */
export const CALENDAR_REFUSED_PARAMETERS: Readonly<Record<string, string>> = {
  page: FEED_NOT_PAGINATED,
  limit: FEED_NOT_PAGINATED,
  include: 'not accepted on /competitions.ics (an event carries no categories or entry counts)',
};

const { page: _page, limit: _limit, include: _include, order: _order, ...filters } = CompetitionsQuery.properties;

/**
 * Query parameters of `GET /competitions.ics`: every filter of `/competitions` with the same
 * schemas (so the same validation and 400 details), and `sort`/`order`, which choose the first
 * CALENDAR_FEED_MAX_EVENTS when more match. The order defaults to `desc` here: past the bound a
 * subscriber keeps the latest-starting competitions (the upcoming ones), not the oldest.
 */
export const CompetitionsCalendarQuery = Type.Object(
  {
    ...filters,
    order: Type.Optional(
      StringEnum(SORT_ORDERS, {
        default: 'desc',
        description: `Sort direction; default \`desc\` (unlike \`/competitions\`), so that when more than ${CALENDAR_FEED_MAX_EVENTS.toLocaleString('en')} competitions match, the feed keeps the latest-starting ones. Equal sort keys end with \`id\` ascending.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export type CompetitionsCalendarQuery = WithDefaults<Static<typeof CompetitionsCalendarQuery>, 'sort' | 'order'>;
