import { ApiError } from './http/apiError.ts';
import { StreamedBody } from './http/streamedBody.ts';
import { isQueryTimeLimit } from './http/toApiError.ts';

/** `Retry-After` of a search that ran out of time, seconds: the same search soon after may find the instance less busy. */
const RETRY_AFTER_SECONDS = 5;

/** The 503 of a search that ran past API_SEARCH_TIMEOUT_MS (the database stopped it). */
export function searchTimedOut(limitMs: number, cause: unknown): ApiError {
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    `The search ran past its time limit of ${limitMs} ms and was stopped; narrow it with other filters or retry later.`,
    { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) }, cause },
  );
}

/**
 * The body of a route that runs a search, with its database's time limit turned into the
 * search's own 503 (searchTimedOut) rather than the read model's: a body made whole (a promise)
 * and a body made piece by piece (its chunks, read while the pipeline gathers or streams it).
 */
export function searchTimeLimit<T>(body: Promise<T> | T, limitMs: number): Promise<T> | T {
  const rethrow = (error: unknown): never => {
    throw isQueryTimeLimit(error) ? searchTimedOut(limitMs, error) : error;
  };
  if (body instanceof Promise) return body.catch(rethrow);
  if (!(body instanceof StreamedBody)) return body;
  const { chunks } = body;
  async function* limited(): AsyncGenerator<string | Buffer> {
    try {
      yield* chunks;
    } catch (error) {
      rethrow(error);
    }
  }
  return new StreamedBody(body.contentType, limited()) as T;
}
