import type { ErrorBody } from './paths.ts';

/**
 * A response other than 2xx, as an error: the API's envelope (`error.type`, `error.message`,
 * `error.details`), the status and the request id to quote when reporting it. A 304 that no
 * cached body answers is one too (`NOT_MODIFIED`), as are bodies that are not the envelope (a
 * proxy's page: `type` is `UNEXPECTED_RESPONSE`).
 */
export class FederationApiError extends Error {
  override readonly name: string = 'FederationApiError';
  readonly status: number;
  readonly error: ErrorBody;
  /** `X-Request-Id` of the response; the API names it in a 500's message too. */
  readonly requestId: string | null;
  readonly url: string;
  /** The response itself (its body already read), for its other headers (`Retry-After`, the rate limit). */
  readonly response: Response;

  constructor(response: Response, error: ErrorBody) {
    super(`${response.status} ${error.type}: ${error.message}`);
    this.status = response.status;
    this.error = error;
    this.requestId = response.headers.get('x-request-id');
    this.url = response.url;
    this.response = response;
  }
}

/** The error of a response that is not 2xx, from its body (read here). */
export async function errorOf(response: Response): Promise<FederationApiError> {
  if (response.status === 304)
    return new FederationApiError(response, {
      type: 'NOT_MODIFIED',
      message: 'Not modified: the validator sent is current, and no cached body answers it.',
      details: [],
    });
  const text = await response.text();
  return new FederationApiError(response, envelopeIn(text) ?? unexpected(response.status, text));
}

function envelopeIn(text: string): ErrorBody | undefined {
  try {
    const { error } = JSON.parse(text) as { error?: Partial<ErrorBody> };
    const ok = typeof error?.type === 'string' && typeof error.message === 'string' && Array.isArray(error.details);
    return ok ? { type: error.type!, message: error.message!, details: error.details!.map(String) } : undefined;
  } catch {
    return undefined;
  }
}

function unexpected(status: number, text: string): ErrorBody {
  const excerpt = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return { type: 'UNEXPECTED_RESPONSE', message: `HTTP ${status} without the API's error envelope`, details: excerpt ? [excerpt] : [] };
}

/**
 * `410 Gone` from the change feed: the cursor is older than what the feed keeps, or the read
 * model was rebuilt since it was given. No cursor goes on from here: resync from the listings
 * (`updatedSince`), then follow the feed again from a cursor it gives now.
 */
export class ChangeFeedGoneError extends FederationApiError {
  override readonly name = 'ChangeFeedGoneError';

  constructor(gone: FederationApiError) {
    super(gone.response, gone.error);
    this.message = `${gone.message} Resync from the listings (updatedSince), then follow the changes again from a fresh cursor.`;
  }
}
