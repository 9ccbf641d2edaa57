import { parseRetryAfter, retryDelay, type RetryPolicy } from './retryPolicy.ts';

export interface Transport {
  readonly fetch: typeof globalThis.fetch;
  readonly retry: RetryPolicy;
  /** Per attempt; 0 for none. */
  readonly timeoutMs: number;
  readonly random: () => number;
}

/**
 * GET `url` until an attempt answers something other than a retried status, or the attempts
 * run out (the last response is returned). A network failure is retried like a 503 without
 * `Retry-After`; a timeout or the caller's abort is not, and rejects.
 */
export async function sendWithRetries(
  url: string,
  headers: Headers,
  signal: AbortSignal | undefined,
  transport: Transport,
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await transport.fetch(url, { method: 'GET', headers, signal: attemptSignal(signal, transport.timeoutMs) });
    } catch (failure) {
      const delay = isNetworkFailure(failure) ? retryDelay(attempt, undefined, transport.retry, transport.random) : undefined;
      if (delay === undefined) throw failure;
      await sleep(delay, signal);
      continue;
    }
    if (!transport.retry.statuses.includes(response.status)) return response;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    const delay = retryDelay(attempt, retryAfter, transport.retry, transport.random);
    if (delay === undefined) return response;
    await response.body?.cancel();
    await sleep(delay, signal);
  }
}

function attemptSignal(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal | undefined {
  const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
  if (signal === undefined || timeout === undefined) return signal ?? timeout;
  return AbortSignal.any([signal, timeout]);
}

/** fetch rejects with a TypeError when no response came (refused, reset, DNS); aborts are DOMExceptions. */
function isNetworkFailure(failure: unknown): boolean {
  return failure instanceof TypeError;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
