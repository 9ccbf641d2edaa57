import { ERROR_STATUS } from '../http/apiError.ts';
import type { ErrorCode } from '../http/apiError.ts';
import { HEADERS_OF_ERROR, headerRefs } from './openApiHeaders.ts';
import type { HeaderName } from './openApiHeaders.ts';

interface ErrorResponseText {
  readonly description: string;
  readonly message: string;
  readonly details?: string[];
  readonly headers?: HeaderName[];
}

// One response component per error code, keyed by the code, each with an example envelope.
const TEXT: Record<ErrorCode, ErrorResponseText> = {
  INVALID_REQUEST: {
    description:
      'A query parameter is unknown, repeated, malformed or outside its accepted values (an enum value, `limit` outside 1 to 100, `BUFFER` in `registryState`, `status` on `/coaches` or `/clubs`, a text parameter or `idOrSlug` over 100 characters, …). `details` names every offending parameter, in query-string order.',
    message: 'One or more query parameters are invalid.',
    details: ['limit: must be an integer from 1 to 100 (got 500)', 'cityId: unknown parameter (removed; use city)'],
  },
  NOT_FOUND: {
    description:
      'No public resource here: unknown path, unknown competition id or slug, non-uuid or unknown club id, a club on the internal buffer.',
    message: 'No resource at this path.',
  },
  METHOD_NOT_ALLOWED: {
    description: 'Any method other than GET or HEAD on a known path (listed here for completeness: GET itself never answers 405).',
    message: 'Method POST is not allowed; use GET or HEAD.',
    headers: ['Allow'],
  },
  CURSOR_EXPIRED: {
    description:
      '`/changes` only: the cursor (`after` or `Last-Event-ID`) is older than the oldest change the feed keeps, or belongs to a generation of the read model the API no longer serves (a rebuild switched it). Resync from the listings (`updatedSince`, `/competitions/removals`), then follow the feed from a `meta.latest` read before the resync started.',
    message: 'The cursor 3.1200 is older than the changes the feed keeps; resync from the listings.',
    details: ['after: resync with the listings (updatedSince) and follow from a meta.latest of /changes read before the resync'],
  },
  URI_TOO_LONG: {
    description:
      'The request line (method, path with its query string, version) is longer than 8,192 bytes. No valid request comes near it: every text parameter takes at most 100 characters. (A request head, line and headers, past 16 KB is cut by the HTTP parser with a bare 431.)',
    message: 'The request line is longer than 8192 bytes.',
  },
  RATE_LIMIT_EXCEEDED: {
    description:
      "The client IP's 300 requests in the 60-second sliding window are spent; `Retry-After` says when the oldest counted request leaves the window.",
    message: 'Rate limit of 300 requests per 60 seconds exceeded; retry in 12 s.',
    headers: ['Retry-After'],
  },
  INTERNAL_ERROR: {
    description: 'A fault on the server. The message names the request id; no internals are disclosed.',
    message: 'Internal error (request id 6f1c2b8e-8f7a-4d9e-9c1a-2b3c4d5e6f70).',
  },
  SERVICE_UNAVAILABLE: {
    description:
      'The read model (database) is unreachable or a query ran out of time, or the instance is answering as many uncached requests as it takes and its short queue is full (`Retry-After: 1`). Never a partial body; retry after `Retry-After` seconds, and keep serving the last good response meanwhile.',
    message: 'The read model is temporarily unavailable; retry later.',
    headers: ['Retry-After'],
  },
};

export function errorResponseComponents(): Record<string, unknown> {
  return Object.fromEntries(
    (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => {
      const text = TEXT[code];
      return [
        code,
        {
          description: `${ERROR_STATUS[code]} ${code}: ${text.description}`,
          headers: headerRefs([...HEADERS_OF_ERROR, ...(text.headers ?? [])]),
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Error' },
              example: { error: { type: code, message: text.message, details: text.details ?? [] } },
            },
          },
        },
      ];
    }),
  );
}

/** `{ '400': { $ref: '#/components/responses/INVALID_REQUEST' }, … }` for the given codes. */
export function errorResponseRefs(codes: readonly ErrorCode[]): Record<string, { $ref: string }> {
  return Object.fromEntries(codes.map((code) => [String(ERROR_STATUS[code]), { $ref: `#/components/responses/${code}` }]));
}
