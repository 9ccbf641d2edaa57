// The response headers of the API as OpenAPI header objects, and which responses carry them.

const integer = { type: 'integer', minimum: 0 };

export const OPENAPI_HEADERS = {
  'X-Request-Id': {
    description:
      'On every response. A caller-supplied `X-Request-Id` is echoed when it matches `[A-Za-z0-9_.:-]` and has at most 64 characters; otherwise a generated id replaces it.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$' },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed per window per client IP (300). On every response.', schema: integer },
  'X-RateLimit-Remaining': { description: 'Requests left in the current sliding window. On every response.', schema: integer },
  'X-RateLimit-Window': { description: 'Length of the sliding window in seconds (60). On every response.', schema: integer },
  RateLimit: {
    description: 'IETF draft-ietf-httpapi-ratelimit-headers field: remaining requests `r` and seconds `t` until budget frees up.',
    schema: { type: 'string', examples: ['"default";r=299;t=60'] },
  },
  'RateLimit-Policy': {
    description: 'IETF draft-ietf-httpapi-ratelimit-headers field: quota `q` per window `w` seconds.',
    schema: { type: 'string', examples: ['"default";q=300;w=60'] },
  },
  ETag: {
    description:
      'Weak validator of the body: a hash of its bytes, or `W/"s-…"` (from the data version and the URL) on a body larger than the answer budget, which is streamed. The same in every `Content-Encoding`. Send it back as `If-None-Match`; unchanged data answers 304 with no body (cache hit or miss).',
    schema: { type: 'string', examples: ['W/"3q2-7w_lJVYcWmXKrSc8HC-iVZ1t2IhGOfH1LDdr7LM"'] },
  },
  'Cache-Control': {
    description:
      '`public, max-age=<TTL>` (60 s competitions, 120 s registry listings and club detail, 300 s categories and filter values); `no-store` when `updatedSince` is present.',
    schema: { type: 'string' },
  },
  'X-Cache': {
    description: 'Server-side cache: `HIT`, `MISS`, or `BYPASS` (query not cacheable: `updatedSince`).',
    schema: { type: 'string', enum: ['HIT', 'MISS', 'BYPASS'] },
  },
  'X-Data-Current-At': {
    description:
      'On every data response (200 and 304, cache hits included): the instant up to which the data served is known current; every event the federation had published by then is applied. Absent until the projector has caught up once. A change the federation made after this instant may not show yet.',
    schema: { type: 'string', format: 'date-time' },
  },
  'Last-Modified': {
    description:
      'On the competition detail: its `updatedAt` as an HTTP date. Send it back as `If-Modified-Since` (used only when no `If-None-Match` is sent, as RFC 9110 says) to get a 304 while it is unchanged.',
    schema: { type: 'string', examples: ['Sat, 14 Jun 2025 09:30:00 GMT'] },
  },
  'Content-Encoding': {
    description:
      "`br` or `gzip` when the request's `Accept-Encoding` accepts one (brotli preferred) and the body is 1 KB or more; absent otherwise (the body as is).",
    schema: { type: 'string', enum: ['br', 'gzip'] },
  },
  Vary: {
    description: '`Origin`, and `Accept-Encoding` where the body is sent coded for clients that accept it (1 KB or more).',
    schema: { type: 'string', examples: ['Origin, Accept-Encoding'] },
  },
  Age: { description: 'Seconds the body has been in the server-side cache (on a `HIT`).', schema: integer },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
  Allow: { description: 'The methods the path accepts: `GET, HEAD`.', schema: { type: 'string', const: 'GET, HEAD' } },
} as const;

export type HeaderName = keyof typeof OPENAPI_HEADERS;

const EVERY_RESPONSE: HeaderName[] = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Window',
  'RateLimit',
  'RateLimit-Policy',
];

export const HEADERS_OF_200: HeaderName[] = [
  'ETag',
  'Content-Encoding',
  'Vary',
  'Last-Modified',
  'Cache-Control',
  'X-Cache',
  'Age',
  'X-Data-Current-At',
  ...EVERY_RESPONSE,
];
export const HEADERS_OF_304: HeaderName[] = [
  'ETag',
  'Vary',
  'Last-Modified',
  'Cache-Control',
  'X-Cache',
  'X-Data-Current-At',
  ...EVERY_RESPONSE,
];
export const HEADERS_OF_ERROR: HeaderName[] = ['Cache-Control', ...EVERY_RESPONSE];

export function headerRefs(names: readonly HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}
