/** The API's stable error codes and the HTTP status each one answers with. */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CURSOR_EXPIRED: 410,
  URI_TOO_LONG: 414,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ApiErrorOptions {
  readonly details?: readonly string[];
  /** Response headers the error carries, e.g. `Retry-After` or `Allow`. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

/** The one error type of the API; `errorMiddleware` maps it to the envelope and the status. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: readonly string[];
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
