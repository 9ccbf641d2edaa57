import { ChangeFeedGoneError, errorOf } from './federationApiError.ts';
import type { Change, ChangePage, ChangesQuery } from './paths.ts';
import { requestUrl } from './requestUrl.ts';
import { parseRetryAfter, retryDelay } from './retryPolicy.ts';
import type { Transport } from './sendWithRetries.ts';

export interface ChangesOptions {
  /** The cursor of the last change you have: the feed starts after it. Without it, the feed starts at its oldest kept change. */
  after?: string;
  /** Only changes of these resource types. */
  type?: NonNullable<ChangesQuery>['type'];
  /** Only changes of resources in this country (its code), as the resource was when the change was made. */
  country?: NonNullable<ChangesQuery>['country'];
  /** The same by the country's id. */
  countryId?: NonNullable<ChangesQuery>['countryId'];
  /** Changes per request (the API's default when absent). */
  limit?: number;
  /** How long each request may wait on the API for the next change, in seconds (default 25, at most 30; 0 asks and returns at once). */
  waitSeconds?: number;
  /** Ends the iteration (without an error), its request in flight and any wait between attempts. */
  signal?: AbortSignal;
  /**
   * The cursor is older than what the feed keeps, or the read model was rebuilt: read `meta.latest`
   * of `/changes?limit=1`, resync from the listings (`updatedSince`), then return that `latest` to
   * go on from. Without it, the iteration rejects with the `ChangeFeedGoneError`.
   */
  onGone?: (error: ChangeFeedGoneError) => string | Promise<string>;
  /** Failed attempts in a row (no answer, or a retried status) after which the iteration rejects with the last failure (default: never). */
  maxFailures?: number;
}

const DEFAULT_WAIT_SECONDS = 25;

/**
 * Follows `GET /changes` in its JSON form, one long poll after another from the last cursor
 * yielded: a failed connection, a timeout or a retried status (429 and 503 by default) is tried
 * again from that cursor after the `Retry-After` the API sent, or a backoff with jitter, however
 * many times it takes, so a follower rides through an API restart.
 */
export async function* followChanges(
  baseUrl: string,
  headers: Headers,
  transport: Transport,
  options: ChangesOptions,
): AsyncGenerator<Change, void, undefined> {
  const { signal, waitSeconds = DEFAULT_WAIT_SECONDS, maxFailures = Number.POSITIVE_INFINITY } = options;
  // Ours as well as the caller's: `break` out of the loop stops the request in flight.
  const stop = new AbortController();
  const stopped = signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]);
  const forever = { ...transport.retry, attempts: Number.POSITIVE_INFINITY };
  let after = options.after;
  let failures = 0;
  headers.set('accept', 'application/json');
  try {
    while (!stopped.aborted) {
      const url = requestUrl(
        baseUrl,
        '/changes',
        {},
        { after, type: options.type, country: options.country, countryId: options.countryId, limit: options.limit, wait: waitSeconds },
      );
      // The attempt's time runs from when the API's wait is over.
      const timeoutMs = transport.timeoutMs > 0 ? transport.timeoutMs + waitSeconds * 1000 : 0;
      let failure: unknown;
      let retryAfterMs: number | undefined;
      try {
        const response = await transport.fetch(url, { method: 'GET', headers, signal: attemptSignal(stopped, timeoutMs) });
        if (response.ok) {
          const page = (await response.json()) as ChangePage;
          failures = 0;
          for (const change of page.data) {
            yield change;
            after = change.cursor;
          }
          // Past the last change yielded when filters left some out; an empty page's repeats `after`.
          after = page.meta.last;
          continue;
        }
        const error = await errorOf(response);
        if (response.status === 410) {
          const gone = new ChangeFeedGoneError(error);
          if (options.onGone === undefined) throw gone;
          after = await options.onGone(gone);
          continue;
        }
        if (!transport.retry.statuses.includes(response.status)) throw error;
        failure = error;
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
      } catch (thrown) {
        if (stopped.aborted) return;
        if (!isConnectionFailure(thrown)) throw thrown;
        failure = thrown;
      }
      failures += 1;
      if (failures >= maxFailures) throw failure;
      const delay = retryAfterMs ?? retryDelay(failures, undefined, forever, transport.random) ?? forever.maxDelayMs;
      if (!(await pause(delay, stopped))) return;
    }
  } finally {
    stop.abort();
  }
}

function attemptSignal(signal: AbortSignal, timeoutMs: number): AbortSignal {
  return timeoutMs > 0 ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : signal;
}

/** No answer (refused, reset, DNS: fetch's TypeError), or none in time (the attempt's timeout), or a body cut short. */
function isConnectionFailure(thrown: unknown): boolean {
  return thrown instanceof TypeError || (thrown instanceof Error && (thrown.name === 'TimeoutError' || thrown.name === 'AbortError'));
}

/** Resolves true after `ms`, or false at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
