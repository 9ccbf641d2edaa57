/** The rules every endpoint shares, as the document's Markdown description. */
export const OPENAPI_DESCRIPTION = `
Read-only JSON API over the federation's public competition calendar and member registry: published
competitions (never drafts) with their categories, and the registry of dancers, coaches, judges and
clubs. The data is what anonymous visitors of the public site see; there is no per-caller data and no
authentication. Publishing the data requires credit to the operator and a link back to the
competition page (terms of use).

## Query parameters
- Filters combine with AND. Multi-value parameters are comma-separated: items are trimmed, an empty
  item answers 400, duplicates are ignored.
- Whitespace around a value (or a list item) is removed before it is checked: the schemas below
  describe the trimmed value, and an empty one answers 400 (\`<name>: must not be empty\`).
- An unknown parameter answers 400 with the detail \`<name>: unknown parameter\`; it is never ignored.
  The filters removed within v1 answer the same and name what replaced them:
  \`cityId: unknown parameter (removed; use city)\`, \`regionId: unknown parameter (removed; regions are no longer stored)\`.
- A parameter given more than once answers 400 (\`<name>: given more than once\`).
- Booleans are exactly \`true\` or \`false\`. Integers are decimal digits only (no \`1.0\`, \`1e2\`, \`+1\`, spaces),
  and at most 9007199254740991 (2^53 − 1) where a parameter states no smaller \`maximum\`.
- Dates are calendar days \`YYYY-MM-DD\` that exist; date-times are RFC 3339 with a time zone. A day range
  whose \`dateTo\` is before its \`dateFrom\` answers 400.
- A value outside the accepted values answers 400, never a silent fallback. The 400's \`details\` lists
  every offending parameter, one \`<parameter>: <explanation>\` each, in query-string order.
- \`search\` is a case-insensitive and diacritic-insensitive substring match (\`janis\` finds \`Jānis\`)
  of at least 2 characters after trimming. \`country\` is an ISO 3166-1 alpha-2 code (case-insensitive)
  or a full country name (case-insensitive, exact). \`city\` is a case-insensitive prefix match, on the
  venue city for competitions and on any location of a club (branches included) for clubs; \`country\`
  and \`countryId\` on \`/clubs\` also match any location.

## Pagination and order
\`page\` (1 to 2^53 − 1, default 1) and \`limit\` (1 to 100, default 20). A page past the last one answers
200 with empty \`data\` and correct \`meta\`; \`meta.hasPreviousPage\` is always present. Equal sort
keys always end with \`id\` ascending, so pages never overlap or skip.

## Registry dimensions
\`registryState\` (\`REGISTRY\` or \`ARCHIVE\`) tells where a record sits; read it to know who counts as
a member today. \`status\` (\`ACTIVE\`, \`LIMITED\`, \`INACTIVE\`, dancers and judges only, per role) tells
whether the dues are paid. Coaches and clubs that lost their last listed member sit on an internal
buffer and are never returned. \`membershipExpiresAt\` is always a full RFC 3339 date-time in UTC.

## Caching and conditional requests
Responses are cached server-side, keyed on path plus the sorted query string, for 60 s (competition list
and detail), 120 s (registry listings, club detail) or 300 s (categories, filter values). A write to a
competition or category invalidates the cache at once; counts and registry states driven by time may
trail by up to the TTL. \`updatedSince\` responses are never cached (\`Cache-Control: no-store\`,
\`X-Cache: BYPASS\`). Every 200 carries a weak \`ETag\`; sending it back as \`If-None-Match\` answers 304
with no body when the data is unchanged. Keep the last good response and serve it when the API is
unreachable; no availability is guaranteed.

## Rate limit
300 requests per client IP address in a 60-second sliding window; an IPv6 client counts by its /64
prefix (one budget per household or server, as one IPv4 address has). Every request spends budget, a 304
and a cache hit included. Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`,
\`X-RateLimit-Window\` and the IETF fields \`RateLimit\` and \`RateLimit-Policy\`; a 429 carries
\`Retry-After\`, the seconds until the oldest counted request leaves the window.

## Errors
Every error uses the envelope \`{"error": {"type", "message", "details"}}\`. Types: \`INVALID_REQUEST\`
(400), \`NOT_FOUND\` (404, also for unknown paths), \`METHOD_NOT_ALLOWED\` (405 with \`Allow: GET, HEAD\`),
\`URI_TOO_LONG\` (414, a request line over 8,192 bytes), \`RATE_LIMIT_EXCEEDED\` (429), \`INTERNAL_ERROR\` (500,
naming the request id), \`SERVICE_UNAVAILABLE\` (503 with \`Retry-After\`, when the read model is unreachable).
Text parameters (\`search\`, \`city\`, \`country\`) and \`idOrSlug\` take at most 100 characters.

## CORS
Public data: \`Access-Control-Allow-Origin: *\`; \`ETag\`, \`X-Cache\`, \`X-Request-Id\`, the rate-limit
headers and \`Retry-After\` are exposed; preflight requests are answered.

## Versioning
The version is in the path (\`/api/v1\`). New fields can appear without notice: ignore unknown keys.
Changed within v1: the boolean \`isOpen\` was replaced by \`registration.state\`; the filters \`cityId\`
and \`regionId\` were removed.
`.trim();
