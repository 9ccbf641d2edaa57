import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';

/** The one error body of the API. */
export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      type: Type.String({
        description:
          'Stable code: `INVALID_REQUEST`, `NOT_FOUND`, `METHOD_NOT_ALLOWED`, `CURSOR_EXPIRED`, `URI_TOO_LONG`, `RATE_LIMIT_EXCEEDED`, `INTERNAL_ERROR`, `SERVICE_UNAVAILABLE`.',
      }),
      message: Type.String(),
      details: Type.Array(Type.String(), {
        description: 'For 400: one `<parameter>: <explanation>` per offending parameter, in the order they appear in the query string.',
      }),
    }),
  },
  { title: 'Error' },
);

export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
