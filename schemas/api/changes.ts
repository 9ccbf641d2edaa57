import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { DateTimeString, NullableString, StringEnum, UuidString } from './primitives.ts';
import { CommaList, IntegerParameter, country, countryId, limit } from './queryParameters.ts';
import type { WithDefaults } from './withDefaults.ts';

/** The resource types the change feed announces (one per public resource of the API). */
export const CHANGE_RESOURCE_TYPES = ['competition', 'dancer', 'coach', 'judge', 'club'] as const;
export type ChangeResourceType = (typeof CHANGE_RESOURCE_TYPES)[number];

/** What happened to the resource's public representation. */
export const CHANGE_ACTIONS = ['created', 'changed', 'removed'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** The longest a JSON request waits for the next change (`wait`), in seconds. */
export const CHANGES_MAX_WAIT_SECONDS = 30;

/**
 * A cursor: the generation of the read model and the change's position in it, `<generation>.<seq>`.
 * Clients treat it as opaque; the pattern bounds what reaches the server.
 */
export const CHANGE_CURSOR_PATTERN = '^[1-9][0-9]{0,8}\\.[0-9]{1,15}$';

export const ChangeCursor = (options: { description: string }) =>
  Type.String({ pattern: CHANGE_CURSOR_PATTERN, maxLength: 25, ...options });

/** Query parameters of `GET /changes`. */
export const ChangesQuery = Type.Object(
  {
    after: Type.Optional(
      ChangeCursor({
        description:
          "Only changes after this cursor (a change's `cursor`, or `meta.last` of a previous page). Without it, from the oldest change the feed still keeps. A cursor older than what the feed keeps, or of a generation the API no longer serves, answers 410 `CURSOR_EXPIRED`. On a stream, the `Last-Event-ID` request header (sent by `EventSource` when it reconnects) takes precedence over `after`.",
      }),
    ),
    type: CommaList(StringEnum(CHANGE_RESOURCE_TYPES), 'Only changes of these resource types.'),
    country: country(
      "the resource's country (a competition's venue, a dancer's, coach's or judge's own, any location of a club) as it was when the change was made; keeps only changes of resources that have a country",
    ),
    countryId: countryId(
      "the resource's country (a competition's venue, a dancer's, coach's or judge's own, any location of a club) as it was when the change was made",
    ),
    limit,
    wait: IntegerParameter(
      `JSON only: when no change follows \`after\`, hold the request up to this many seconds (0 to ${CHANGES_MAX_WAIT_SECONDS}; default 0) and answer as soon as one is made visible (long poll). Ignored on a stream.`,
      { maximum: CHANGES_MAX_WAIT_SECONDS },
    ),
  },
  { additionalProperties: false },
);

export type ChangesQuery = WithDefaults<Static<typeof ChangesQuery>, 'limit'>;

export const Change = Type.Object(
  {
    cursor: ChangeCursor({ description: 'Resume after this change: `after=<cursor>`, or the SSE `id:` (`Last-Event-ID`).' }),
    at: DateTimeString({ description: 'When the change became visible in the listings (UTC).' }),
    type: StringEnum(CHANGE_RESOURCE_TYPES, { description: 'The resource type.' }),
    id: UuidString({ description: 'The resource id.' }),
    action: StringEnum(CHANGE_ACTIONS, {
      description:
        '`created`: the resource became public (new, published, listed again after the internal buffer); `changed`: its public representation changed (for a competition: its categories and counts too); `removed`: it left public view (a competition unpublished or deleted, a coach or club on the internal buffer). A dancer, coach, judge or club moving to the archive is `changed`: archived records stay public.',
    }),
    url: NullableString({
      description:
        "The resource's own URL (`/competitions/{id}`, `/clubs/{id}`); null for dancers, coaches and judges, which have no detail endpoint: read them from their listing.",
    }),
  },
  { title: 'Change' },
);

export const ChangesMeta = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100 }),
    after: Type.Union([ChangeCursor({ description: 'The `after` this page follows.' }), Type.Null()], {
      description: 'The cursor the page follows; null when it started at the oldest change kept.',
    }),
    last: ChangeCursor({
      description:
        'Resume from here: the cursor of the last change of the page, or, when the page is empty, the cursor it followed (the newest change at the time when it followed none).',
    }),
    latest: ChangeCursor({
      description:
        'The newest change at the time of the answer (before filters): after a resync from the listings, follow from a `latest` read before the resync started.',
    }),
    hasMore: Type.Boolean({ description: 'More changes follow already: fetch `links.next` without waiting.' }),
  },
  { title: 'ChangesMeta' },
);

export const ChangesLinks = Type.Object(
  {
    self: Type.String(),
    next: Type.String({ description: 'The next page: the same query with `after=meta.last`. Never null: a feed has no last page.' }),
  },
  { title: 'ChangesLinks' },
);

export const ChangeListEnvelope = Type.Object(
  { data: Type.Array(Change), meta: ChangesMeta, links: ChangesLinks },
  { title: 'ChangeList' },
);

export type Change = Static<typeof Change>;
export type ChangesMeta = Static<typeof ChangesMeta>;
export type ChangeListEnvelope = Static<typeof ChangeListEnvelope>;
