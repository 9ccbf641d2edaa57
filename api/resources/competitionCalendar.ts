import ical, { foldLines, ICalEventTransparency, type ICalCalendar, type ICalEventData } from 'ical-generator';
import { addDays } from '../../services/calendar/index.ts';
import type { CompetitionDocument } from '../../services/readModel/documents.ts';
import { segment, type ApiUrls } from './apiUrls.ts';

/** The stored fields one calendar event is made from. */
export const CALENDAR_EVENT_FIELDS = ['id', 'slug', 'name', 'description', 'dates', 'location', 'createdAt', 'updatedAt'] as const;

export type CalendarCompetition = Pick<CompetitionDocument, (typeof CALENDAR_EVENT_FIELDS)[number]>;

export interface CalendarFeed {
  /** The competitions of the feed, in the order they were selected. */
  readonly competitions: readonly CalendarCompetition[];
  /** How many competitions matched the filters (more than `competitions.length` past the bound). */
  readonly matched: number;
  /** The feed's own canonical URL. */
  readonly selfUrl: string;
  /** How the events were chosen past the bound, e.g. `startDate desc`. */
  readonly order: string;
}

/** Calendar apps refresh a subscription at their own pace; this is the hint they may follow. */
const REFRESH_SECONDS = 3600;

/**
 * The iCalendar (RFC 5545) text of a feed. Deterministic: the same competitions give the same
 * bytes (DTSTAMP is the competition's `updatedAt`, never the time of the request), so the weak
 * ETag and the server cache work as for JSON.
 */
export function competitionCalendar(feed: CalendarFeed, urls: ApiUrls): string {
  const calendar = feedCalendar(feed, feed.competitions.length);
  for (const c of feed.competitions) calendar.createEvent(calendarEvent(c, urls));
  return calendar.toString();
}

/** A feed whose competitions are read as it is sent: how many it shows is known before them (from `matched` and the bound). */
export interface StreamedCalendarFeed extends Omit<CalendarFeed, 'competitions'> {
  readonly competitions: AsyncIterable<CalendarCompetition>;
  /** How many of `competitions` the feed shows. */
  readonly shown: number;
}

const CALENDAR_END = 'END:VCALENDAR';

/**
 * competitionCalendar's bytes piece by piece: the header, one event at a time, the end. Line
 * folding is per line (RFC 5545 3.1), so folding each event alone gives the bytes folding the
 * whole text does.
 */
export async function* calendarChunks(feed: StreamedCalendarFeed, urls: ApiUrls): AsyncGenerator<string> {
  const calendar = feedCalendar(feed, feed.shown);
  const empty = calendar.toString();
  yield empty.slice(0, empty.length - CALENDAR_END.length);
  for await (const c of feed.competitions) {
    const event = calendar.createEvent(calendarEvent(c, urls));
    calendar.clear();
    yield foldLines(event.toString());
  }
  yield CALENDAR_END;
}

function feedCalendar(feed: Omit<CalendarFeed, 'competitions'>, shown: number): ICalCalendar {
  return ical({
    name: 'Dance-sport competitions',
    prodId: { company: 'federation', product: 'competition-calendar', language: 'EN' },
    url: feed.selfUrl,
    ttl: REFRESH_SECONDS,
    description: describeFeed(shown, feed),
  });
}

function calendarEvent(c: CalendarCompetition, urls: ApiUrls): ICalEventData {
  // The UID names the site (the federation's lasting identity), not the API host, so moving the
  // API does not duplicate every event in subscribers' calendars.
  const uidDomain = new URL(urls.site('/')).host;
  return {
    id: `${c.id}@${uidDomain}`,
    allDay: true,
    start: c.dates.start,
    // RFC 5545 3.6.1: DTEND of an all-day event is exclusive, the day after the last one.
    end: addDays(c.dates.end, 1),
    summary: c.name,
    location: locationText(c.location),
    url: urls.site(`/competitions/${segment(c.slug)}`),
    description: c.description,
    created: new Date(c.createdAt),
    lastModified: new Date(c.updatedAt),
    stamp: new Date(c.updatedAt),
    // A competition in someone's calendar does not make them busy.
    transparency: ICalEventTransparency.TRANSPARENT,
  };
}

function describeFeed(shown: number, feed: Omit<CalendarFeed, 'competitions'>): string {
  if (shown >= feed.matched) return `${count(feed.matched)} published competition${feed.matched === 1 ? '' : 's'}.`;
  return `The first ${count(shown)} of ${count(feed.matched)} matching published competitions (by ${feed.order}); narrow the filters (e.g. period=upcoming or country) to get the others.`;
}

const count = (n: number): string => n.toLocaleString('en');

/** Venue, city and country, from the parts that are set; null when none is. */
export function locationText(location: CalendarCompetition['location']): string | null {
  const parts = [location.venueName, location.city, location.country].filter((part): part is string => part !== null && part.trim() !== '');
  return parts.length === 0 ? null : parts.join(', ');
}
