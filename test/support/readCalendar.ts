import ICAL from 'ical.js';

// Reads an iCalendar feed with ical.js, a parser independent of ical-generator (which writes
// the feed), so the tests check what a calendar app would read, not what the writer meant.

export interface ReadEvent {
  uid: string;
  summary: string;
  location: string | null;
  url: string | null;
  description: string | null;
  /** DTSTART / DTEND as ical.js reads them (`YYYY-MM-DD` for dates), and whether they are dates. */
  start: string;
  end: string;
  allDay: boolean;
  lastModified: string | null;
  stamp: string | null;
  created: string | null;
  transparency: string | null;
}

export interface ReadCalendar {
  version: string;
  name: string | null;
  description: string | null;
  url: string | null;
  events: ReadEvent[];
}

const text = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstPropertyValue(name);
  return value === null || value === undefined ? null : String(value as string | number);
};

const instant = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstPropertyValue(name);
  return value instanceof ICAL.Time ? value.toJSDate().toISOString() : null;
};

function time(component: ICAL.Component, name: string): ICAL.Time {
  const value = component.getFirstPropertyValue(name);
  if (!(value instanceof ICAL.Time)) throw new Error(`${name} is not a date or date-time`);
  return value;
}

export function readCalendar(feed: string): ReadCalendar {
  const root = new ICAL.Component(ICAL.parse(feed) as unknown[]);
  if (root.name !== 'vcalendar') throw new Error(`not a VCALENDAR: ${root.name}`);
  const events = root.getAllSubcomponents('vevent').map((event): ReadEvent => {
    const start = time(event, 'dtstart');
    const end = time(event, 'dtend');
    return {
      uid: text(event, 'uid') ?? '',
      summary: text(event, 'summary') ?? '',
      location: text(event, 'location'),
      url: text(event, 'url'),
      description: text(event, 'description'),
      start: start.toString(),
      end: end.toString(),
      allDay: start.isDate && end.isDate,
      lastModified: instant(event, 'last-modified'),
      stamp: instant(event, 'dtstamp'),
      created: instant(event, 'created'),
      transparency: text(event, 'transp'),
    };
  });
  return {
    version: text(root, 'version') ?? '',
    name: text(root, 'x-wr-calname') ?? text(root, 'name'),
    description: text(root, 'x-wr-caldesc') ?? text(root, 'description'),
    url: text(root, 'url'),
    events,
  };
}
