import { ApiError } from './apiError.ts';

/** Driver error names that mean "the read model cannot be reached" (matched by name, no driver import). */
export const DATABASE_UNAVAILABLE_ERROR_NAMES: ReadonlySet<string> = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MongoPoolClosedError',
  'MongoServerClosedError',
]);

export interface ToApiErrorOptions {
  readonly requestId: string;
  /** Seconds a client should wait after a 503; default 5. */
  readonly retryAfterSeconds?: number;
}

/**
 * Maps anything thrown to an ApiError. Only an ApiError's own message reaches the client;
 * every other fault becomes a 500 naming the request id, never a stack or a driver message.
 */
export function toApiError(thrown: unknown, options: ToApiErrorOptions): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (isDatabaseUnavailable(thrown) || isQueryTimeLimit(thrown) || isServerUnavailable(thrown)) {
    return new ApiError('SERVICE_UNAVAILABLE', 'The read model is temporarily unavailable; retry later.', {
      headers: { 'Retry-After': String(options.retryAfterSeconds ?? 5) },
      cause: thrown,
    });
  }
  const status = statusOf(thrown);
  if (status === 404) return new ApiError('NOT_FOUND', 'No resource at this path.', { cause: thrown });
  if (status === 405)
    return new ApiError('METHOD_NOT_ALLOWED', 'Only GET and HEAD are allowed.', { headers: { Allow: 'GET, HEAD' }, cause: thrown });
  if (status !== undefined && status >= 400 && status < 500) {
    return new ApiError('INVALID_REQUEST', 'The request is malformed.', { cause: thrown });
  }
  return new ApiError('INTERNAL_ERROR', `Internal error (request id ${options.requestId}).`, { cause: thrown });
}

export function isDatabaseUnavailable(thrown: unknown): boolean {
  let current: unknown = thrown;
  // The driver sometimes wraps the network error as `cause`; a few levels are enough.
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (DATABASE_UNAVAILABLE_ERROR_NAMES.has(current.name)) return true;
    current = current.cause;
  }
  return false;
}

/** MongoDB's MaxTimeMSExpired: a query ran past the request's time limit and the server stopped it. */
const MAX_TIME_MS_EXPIRED = 50;

export function isQueryTimeLimit(thrown: unknown): boolean {
  return thrown instanceof Error && thrown.name === 'MongoServerError' && (thrown as { code?: unknown }).code === MAX_TIME_MS_EXPIRED;
}

/**
 * Server errors that mean "this server cannot serve now, another attempt may": a server shutting
 * down (SIGTERM) interrupts the operations it runs with InterruptedAtShutdown or answers
 * ShutdownInProgress; a replica set in an election answers the not-primary family. The codes
 * the driver itself retries reads on; a 503 with Retry-After, not a 500, is their answer.
 */
export const SERVER_UNAVAILABLE_CODES: ReadonlySet<number> = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

export function isServerUnavailable(thrown: unknown): boolean {
  if (!(thrown instanceof Error) || thrown.name !== 'MongoServerError') return false;
  const { code } = thrown as { code?: unknown };
  return typeof code === 'number' && SERVER_UNAVAILABLE_CODES.has(code);
}

/** The status of an http-errors style error (as thrown by `ctx.throw`), when there is one. */
function statusOf(thrown: unknown): number | undefined {
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  const { status } = thrown as { status?: unknown };
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}
