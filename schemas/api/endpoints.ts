import { Type } from '@sinclair/typebox';
import type { TObject, TSchema } from '@sinclair/typebox';
import { UuidString } from './primitives.ts';
import { CompetitionsQuery } from './competitionsQuery.ts';
import { CALENDAR_FEED_MAX_EVENTS, CALENDAR_REFUSED_PARAMETERS, CompetitionsCalendarQuery } from './competitionsCalendarQuery.ts';
import { CompetitionRemovalListEnvelope, CompetitionRemovalsQuery } from './competitionRemovals.ts';
import { CHANGES_MAX_WAIT_SECONDS, ChangeListEnvelope, ChangesQuery } from './changes.ts';
import { CompetitionCategoriesQuery } from './competitionCategoriesQuery.ts';
import { ClubsQuery, CoachesQuery, DancersQuery, JudgesQuery } from './registryQueries.ts';
import { NoQuery } from './noQuery.ts';
import { MAX_TEXT_LENGTH } from './queryParameters.ts';
import {
  CategoryListEnvelope,
  ClubEnvelope,
  ClubListEnvelope,
  CoachListEnvelope,
  CompetitionEnvelope,
  CompetitionListEnvelope,
  DancerListEnvelope,
  JudgeListEnvelope,
} from './envelopes.ts';
import { CompetitionFilters, RegistryFilters } from './filterBodies.ts';
import { RootDocument } from './rootDocument.ts';
import { REFERENCE_PAGE_ASSET_FILES, REFERENCE_PAGE_CONTENT_SECURITY_POLICY } from './referencePage.ts';

// The endpoint catalogue: one row per path under `/api/v1`, with the schemas that validate
// its query and describe its body, its cache TTL and the read listings whose writes
// invalidate its cached responses. Query parsing, the cache and the OpenAPI document all
// read this table, so they cannot drift apart.

export type EndpointName =
  | 'competitions'
  | 'competitionsCalendar'
  | 'competitionRemovals'
  | 'competition'
  | 'competitionCategories'
  | 'filters'
  | 'dancers'
  | 'coaches'
  | 'judges'
  | 'clubs'
  | 'club'
  | 'registryFilters'
  | 'changes'
  | 'openApiDocument'
  | 'root'
  | 'referencePage'
  | 'referencePageAsset';

/** The read listings (collections) the projector versions; the same names as services/readModel's `ReadListing`. */
export type DataListing = 'competitions' | 'dancers' | 'coaches' | 'judges' | 'clubs';

export interface PathParameter {
  readonly name: string;
  readonly description: string;
  readonly schema: TSchema & { pattern?: string; maxLength?: number };
}

export interface EndpointDefinition {
  readonly name: EndpointName;
  /** OpenAPI path template relative to the base path, e.g. `/competitions/{idOrSlug}`. */
  readonly path: string;
  readonly pathParameters: readonly PathParameter[];
  readonly query: TObject;
  readonly response: TSchema;
  readonly ttlSeconds: number;
  /**
   * The listings whose writes change this endpoint's responses: the cache keys each response on
   * their versions, so a dancer write leaves `/clubs` cached. Empty for static documents.
   */
  readonly listings: readonly DataListing[];
  readonly tag: 'Calendar' | 'Registry' | 'Changes' | 'Meta';
  readonly summary: string;
  readonly description: string;
  /** Parameters that exist elsewhere but are refused here, with the explanation for the 400 detail. */
  readonly refusedParameters?: Readonly<Record<string, string>>;
  /** Whether the endpoint answers 404 for an unknown resource. */
  readonly answersNotFound: boolean;
  /** Media type of a 200 body when it is not JSON (`response` then describes it as a string); errors stay JSON envelopes. */
  readonly mediaType?: string;
  /**
   * A second form of its 200 body, chosen by `Accept` (the change feed's Server-Sent Events): its
   * media type and a description of the stream. Such an endpoint is never cached and answers no 304.
   */
  readonly stream?: { readonly mediaType: string; readonly description: string };
  /** Whether it answers 410 CURSOR_EXPIRED (a cursor the feed no longer keeps). */
  readonly answersGone?: boolean;
  /** Headers of its 200s and 304s besides the pipeline's (the reference page's Content-Security-Policy). */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  /** false: served, but left out of the OpenAPI document and the root document (the reference page's files). */
  readonly listed?: boolean;
}

const idOrSlug: PathParameter = {
  name: 'idOrSlug',
  description: `The competition UUID or its slug, at most ${MAX_TEXT_LENGTH} characters (a longer one answers 400; a competition whose slug is longer is reached by its id).`,
  schema: Type.String({ minLength: 1, maxLength: MAX_TEXT_LENGTH }),
};
const clubId: PathParameter = {
  name: 'id',
  description: 'The club UUID (clubs have no slug; anything else answers 404).',
  schema: UuidString(),
};

const assetFile: PathParameter = {
  name: 'file',
  description: 'One of the files the reference page loads; any other name answers 404.',
  // Anchored alternatives of literal names: never a path from the request onto the disk.
  schema: Type.String({ pattern: `^(?:${REFERENCE_PAGE_ASSET_FILES.map((file) => file.replaceAll('.', '\\.')).join('|')})$` }),
};

const REGISTRY_TTL = 120;
/** The reference page's files change only with a release, and are revalidated by ETag after that. */
const ASSET_TTL = 86_400;
const REFERENCE_PAGE_HEADERS = { 'Content-Security-Policy': REFERENCE_PAGE_CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff' };

export const ENDPOINTS: Readonly<Record<EndpointName, EndpointDefinition>> = {
  competitions: {
    name: 'competitions',
    path: '/competitions',
    pathParameters: [],
    query: CompetitionsQuery,
    response: CompetitionListEnvelope,
    ttlSeconds: 60,
    listings: ['competitions'],
    tag: 'Calendar',
    answersNotFound: false,
    summary: 'List published competitions',
    description: 'Published competitions (never drafts), filtered with AND, paginated, with ready-made page links.',
  },
  // Before `competition`: the first route that matches a path wins, and `/competitions/removals`
  // must not be read as the competition whose slug is `removals` (that slug is reserved; such a
  // competition is still found by its id).
  competitionsCalendar: {
    name: 'competitionsCalendar',
    path: '/competitions.ics',
    pathParameters: [],
    query: CompetitionsCalendarQuery,
    response: Type.String({ description: 'An iCalendar (RFC 5545) feed: one VEVENT per competition.' }),
    mediaType: 'text/calendar',
    ttlSeconds: 60,
    listings: ['competitions'],
    tag: 'Calendar',
    answersNotFound: false,
    refusedParameters: CALENDAR_REFUSED_PARAMETERS,
    summary: 'Calendar feed of published competitions (iCalendar)',
    description:
      `The competitions \`/competitions\` would list for the same filters (same parameters, same validation, same 400 details), as an iCalendar feed to subscribe to (\`webcal://\` + host + this path). ` +
      'One all-day event per competition: `DTSTART;VALUE=DATE` the first day and `DTEND;VALUE=DATE` the day after the last (RFC 5545: the end is exclusive); ' +
      '`UID` `<competition id>@<host of the public site>` (stable across renames and feeds); `SUMMARY` the name; `LOCATION` venue, city and country; `URL` the competition page (`links.web`); ' +
      "`DESCRIPTION` the plain-text description; `LAST-MODIFIED` and `DTSTAMP` the competition's `updatedAt`. " +
      `At most ${CALENDAR_FEED_MAX_EVENTS.toLocaleString('en')} events: when more competitions match, the feed holds the first ${CALENDAR_FEED_MAX_EVENTS.toLocaleString('en')} in the requested order (default \`sort=startDate&order=desc\`: the latest-starting) and its calendar description (\`X-WR-CALDESC\`) says how many matched; narrow the filters (e.g. \`period=upcoming\`, \`country\`) to get the rest. ` +
      '`page`, `limit` and `include` answer 400. Errors are JSON error envelopes like everywhere else.',
  },
  competitionRemovals: {
    name: 'competitionRemovals',
    path: '/competitions/removals',
    pathParameters: [],
    query: CompetitionRemovalsQuery,
    response: CompetitionRemovalListEnvelope,
    ttlSeconds: 60,
    listings: ['competitions'],
    tag: 'Calendar',
    answersNotFound: false,
    summary: 'Competitions that left public view (incremental sync)',
    description:
      'The other half of incremental sync: competitions that were public and are not any more (unpublished or deleted), with the instant they left public view, oldest first (`removedAt`, then `id`), paginated like `/competitions`. ' +
      "Poll it with the same `updatedSince` as `/competitions?updatedSince=`; apply the list's changes and drop these ids. A competition published again leaves this list and appears in `/competitions` with a new `updatedAt`; a draft that was never public never appears. " +
      'The path is a literal: a competition whose slug is `removals` is reached by its id on `/competitions/{idOrSlug}`.',
  },
  competition: {
    name: 'competition',
    path: '/competitions/{idOrSlug}',
    pathParameters: [idOrSlug],
    query: NoQuery,
    response: CompetitionEnvelope,
    ttlSeconds: 60,
    listings: ['competitions'],
    tag: 'Calendar',
    answersNotFound: true,
    summary: 'One published competition',
    description:
      'The competition with its categories (dances and levels), `registration.entriesCount` and `registration.startsCount`. 404 when no public competition has this id or slug.',
  },
  competitionCategories: {
    name: 'competitionCategories',
    path: '/competitions/{idOrSlug}/categories',
    pathParameters: [idOrSlug],
    query: CompetitionCategoriesQuery,
    response: CategoryListEnvelope,
    ttlSeconds: 300,
    listings: ['competitions'],
    tag: 'Calendar',
    answersNotFound: true,
    summary: "A competition's categories",
    description: 'The categories of one published competition, filtered with AND. 404 when the competition is not found.',
  },
  filters: {
    name: 'filters',
    path: '/filters',
    pathParameters: [],
    query: NoQuery,
    response: CompetitionFilters,
    ttlSeconds: 300,
    listings: ['competitions'],
    tag: 'Calendar',
    answersNotFound: false,
    summary: 'Filter values of the calendar',
    description:
      'Countries and cities that currently have public competitions (with counts of public competitions only), competition type codes and every accepted enum value.',
  },
  dancers: {
    name: 'dancers',
    path: '/dancers',
    pathParameters: [],
    query: DancersQuery,
    response: DancerListEnvelope,
    ttlSeconds: REGISTRY_TTL,
    listings: ['dancers'],
    tag: 'Registry',
    answersNotFound: false,
    summary: 'List dancers',
    description: "Dancers in the selected `registryState` (default `REGISTRY`); `status` is the dancer role's own.",
  },
  coaches: {
    name: 'coaches',
    path: '/coaches',
    pathParameters: [],
    query: CoachesQuery,
    response: CoachListEnvelope,
    ttlSeconds: REGISTRY_TTL,
    listings: ['coaches'],
    tag: 'Registry',
    answersNotFound: false,
    refusedParameters: { status: 'not accepted on /coaches (coaches have no status)' },
    summary: 'List coaches',
    description:
      'A coach is listed while holding at least one registry dancer; coaches on the internal buffer are never returned. `status` answers 400.',
  },
  judges: {
    name: 'judges',
    path: '/judges',
    pathParameters: [],
    query: JudgesQuery,
    response: JudgeListEnvelope,
    ttlSeconds: REGISTRY_TTL,
    listings: ['judges'],
    tag: 'Registry',
    answersNotFound: false,
    summary: 'List judges',
    description:
      "Judges in the selected `registryState`; `status` is the judge role's own, independent of the same person's dancer record.",
  },
  clubs: {
    name: 'clubs',
    path: '/clubs',
    pathParameters: [],
    query: ClubsQuery,
    response: ClubListEnvelope,
    ttlSeconds: REGISTRY_TTL,
    listings: ['clubs'],
    tag: 'Registry',
    answersNotFound: false,
    refusedParameters: { status: 'not accepted on /clubs (clubs have no status)' },
    summary: 'List clubs',
    description:
      'A club is listed while it holds at least one registry member; clubs on the internal buffer are never returned. `city`, `country` and `countryId` match any location of the club, branches included. `status` answers 400.',
  },
  club: {
    name: 'club',
    path: '/clubs/{id}',
    pathParameters: [clubId],
    query: NoQuery,
    response: ClubEnvelope,
    ttlSeconds: REGISTRY_TTL,
    listings: ['clubs', 'coaches'],
    tag: 'Registry',
    answersNotFound: true,
    summary: 'One club',
    description:
      'Club detail with contacts and current coaches (dancers are not inlined). Archived clubs are returned; a non-uuid id, an unknown id and a club on the internal buffer answer 404.',
  },
  registryFilters: {
    name: 'registryFilters',
    path: '/registry/filters',
    pathParameters: [],
    query: NoQuery,
    response: RegistryFilters,
    ttlSeconds: 300,
    listings: ['dancers', 'coaches', 'judges', 'clubs'],
    tag: 'Registry',
    answersNotFound: false,
    summary: 'Filter values of the registry',
    description:
      'Countries with counts per entity type, dance classes, judge categories and positions, accepted `status` and `registryState` values. Counts cover `registryState=REGISTRY` only (`countsScope`).',
  },
  changes: {
    name: 'changes',
    path: '/changes',
    pathParameters: [],
    query: ChangesQuery,
    response: ChangeListEnvelope,
    stream: {
      mediaType: 'text/event-stream',
      description:
        'Server-Sent Events, when `Accept` names `text/event-stream`: one event per change, `event: change`, `id:` its cursor (so `EventSource` resumes by itself with `Last-Event-ID`), `data:` the change as JSON (the `Change` schema). ' +
        'A comment line (`: heartbeat`) every 15 s keeps proxies from closing an idle stream. ' +
        'A stream that cannot keep up (its unsent changes pass a bound) is closed after an `event: cut` whose `id:` and `data:` carry the last cursor sent: reconnect from it. ' +
        'A cursor the feed no longer keeps, or a switch of generation while the stream is open, sends `event: expired` (`data:` the error envelope of a 410) and closes. ' +
        'Opening a stream spends one request of the rate-limit budget; each client may hold a bounded number at once (429 beyond).',
    },
    answersGone: true,
    ttlSeconds: 0,
    listings: [],
    tag: 'Changes',
    answersNotFound: false,
    summary: 'Every public change, in order (JSON pages, long poll, or Server-Sent Events)',
    description:
      'The changes of every public resource (competitions with their categories and counts, dancers, coaches, judges, clubs) in the order the API made them visible, each with a cursor. A change appears here only once the listings show it. ' +
      'Resuming from any cursor gives every later change exactly once, whatever the number of API instances. ' +
      `As JSON (default): a page of at most \`limit\` changes after \`after\`, with \`links.next\` to continue; with \`wait\` (up to ${CHANGES_MAX_WAIT_SECONDS} s) an empty page is held until a change arrives. ` +
      'As Server-Sent Events when `Accept` names `text/event-stream`. ' +
      'Never cached (`Cache-Control: no-store`). A cursor older than what the feed keeps, or of another generation of the read model (after a rebuild), answers 410 `CURSOR_EXPIRED`: resync from the listings (`updatedSince`, `/competitions/removals`), then follow from a `meta.latest` read before the resync.',
  },
  openApiDocument: {
    name: 'openApiDocument',
    path: '/openapi.json',
    pathParameters: [],
    query: NoQuery,
    response: Type.Object({}, { description: 'An OpenAPI 3.1 document.' }),
    ttlSeconds: 300,
    listings: [],
    tag: 'Meta',
    answersNotFound: false,
    summary: 'This OpenAPI document',
    description: 'The machine-readable description of the API, generated from the JSON Schemas that validate requests.',
  },
  // `/api/v1` itself is matched as this path too (matchEndpoint), so the bare base path is not a 404.
  root: {
    name: 'root',
    path: '/',
    pathParameters: [],
    query: NoQuery,
    response: RootDocument,
    ttlSeconds: 300,
    listings: [],
    tag: 'Meta',
    answersNotFound: false,
    summary: 'Where to start: every endpoint, the reference page and this document',
    description:
      'Every endpoint with its method, path template, summary and absolute link (a template where the path has parameters), plus `links.docs` (the reference page) and `links.openapi` (this document). Also served at the base path without the trailing slash.',
  },
  referencePage: {
    name: 'referencePage',
    path: '/docs',
    pathParameters: [],
    query: NoQuery,
    response: Type.String({
      description: 'An HTML page rendering this document with Swagger UI; every file it loads is served by the API.',
    }),
    mediaType: 'text/html',
    responseHeaders: REFERENCE_PAGE_HEADERS,
    ttlSeconds: 300,
    listings: [],
    tag: 'Meta',
    answersNotFound: false,
    summary: 'The API reference page (HTML)',
    description:
      'This document rendered for people to read and try: each operation can be sent from the page ("Try it out") to the API on the same origin. Its files come from `/docs/assets/`, and its Content-Security-Policy allows nothing else.',
  },
  referencePageAsset: {
    name: 'referencePageAsset',
    path: '/docs/assets/{file}',
    pathParameters: [assetFile],
    query: NoQuery,
    response: Type.String({ description: 'A file of the reference page (CSS, JavaScript or PNG).' }),
    responseHeaders: REFERENCE_PAGE_HEADERS,
    listed: false,
    ttlSeconds: ASSET_TTL,
    listings: [],
    tag: 'Meta',
    answersNotFound: true,
    summary: 'A file of the reference page',
    description: "Swagger UI's style sheet and bundle, the page's initializer and its icons.",
  },
};

export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

/** The endpoints the OpenAPI document and the root document describe. */
export const LISTED_ENDPOINT_NAMES = ENDPOINT_NAMES.filter((name) => ENDPOINTS[name].listed !== false);
