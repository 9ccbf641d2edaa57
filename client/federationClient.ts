import { followChanges, type ChangesOptions } from './changeFeed.ts';
import { MemoryEtagCache, type EtagCache } from './etagCache.ts';
import type { FederationApiError } from './federationApiError.ts';
import { errorOf } from './federationApiError.ts';
import type { Change, ItemOf, ListPath, ReadPath, RequestArgs, RequestOptions, ResponseBody } from './paths.ts';
import { requestUrl } from './requestUrl.ts';
import { retryPolicy, type RetryOptions } from './retryPolicy.ts';
import { sendWithRetries, type Transport } from './sendWithRetries.ts';
import { CLIENT_PRODUCT } from './version.ts';

export interface FederationClientOptions {
  /** Retries of 429 and 503 (honouring `Retry-After`) and of network failures; `false` for none. */
  retry?: RetryOptions | false;
  /** Keep 200 bodies by URL and send their ETag as `If-None-Match`; a 304 is then answered from it. `true` for a `MemoryEtagCache`. */
  etagCache?: EtagCache | boolean;
  /** Time allowed to each attempt, in milliseconds (default 30,000; 0 for none). */
  timeoutMs?: number;
  /** Your product token, put before the client's own in `User-Agent` (`my-app/1.2 federation-read-client/2.0.0`); `false` sends none. Browsers set their own. */
  userAgent?: string | false;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A fetch of your own (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /** Source of backoff jitter, in [0, 1) (default Math.random). */
  random?: () => number;
}

/** One response: the body (parsed JSON, or text), or the error; `fromCache` when a 304 was answered from the ETag cache. */
export type ReadResult<P extends ReadPath> =
  | { data: ResponseBody<P>; error?: undefined; response: Response; fromCache: boolean }
  | { data?: undefined; error: FederationApiError; response: Response; fromCache: false };

export interface FederationClient {
  /** GET a path: never rejects for an HTTP status (see `error`); rejects for a timeout, an abort or a network failure past the retries. */
  GET<P extends ReadPath>(path: P, ...init: RequestArgs<P>): Promise<ReadResult<P>>;
  /** GET a path and resolve to its body; rejects with a `FederationApiError` for any other answer. */
  request<P extends ReadPath>(path: P, ...init: RequestArgs<P>): Promise<ResponseBody<P>>;
  /** Every page of a list, from the one asked for, following `links.next` to the end. */
  pages<P extends ListPath>(path: P, ...init: RequestArgs<P>): AsyncGenerator<ResponseBody<P>, void, undefined>;
  /** Every item of a list, page after page. */
  items<P extends ListPath>(path: P, ...init: RequestArgs<P>): AsyncGenerator<ItemOf<P>, void, undefined>;
  /**
   * Every change from `after` on, as they come: long polls of `GET /changes` that resume from the
   * last change yielded after a failure, and wait for the next change once caught up. Runs until
   * `break`, `signal`, a `410` (see `onGone`) or an answer it does not retry.
   */
  changes(options?: ChangesOptions): AsyncGenerator<Change, void, undefined>;
}

/** Browsers and their workers refuse a script's `User-Agent` and would preflight a custom header. */
const IN_BROWSER =
  typeof (globalThis as { document?: unknown }).document !== 'undefined' ||
  typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';

/**
 * A typed client of the API: paths, query parameters, bodies and the error envelope come from the
 * OpenAPI document (schema.ts). `baseUrl` ends in the version segment, e.g.
 * `https://api.example.org/api/v1`.
 */
export function createFederationClient(baseUrl: string, options: FederationClientOptions = {}): FederationClient {
  const transport: Transport = {
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    retry: retryPolicy(options.retry),
    timeoutMs: options.timeoutMs ?? 30_000,
    random: options.random ?? Math.random,
  };
  const cache = options.etagCache === true ? new MemoryEtagCache() : options.etagCache || undefined;
  const userAgent = options.userAgent === false || IN_BROWSER ? undefined : [options.userAgent, CLIENT_PRODUCT].filter(Boolean).join(' ');
  const read = <P extends ReadPath>(url: string, init: RequestOptions<P> | undefined) =>
    readUrl<P>(url, requestHeaders(options.headers, init?.params?.header, userAgent), init?.signal, transport, cache);
  const urlOf = <P extends ReadPath>(path: P, init: RequestOptions<P> | undefined) =>
    requestUrl(baseUrl, path, init?.params?.path ?? {}, init?.params?.query ?? {});

  const client: FederationClient = {
    GET: (path, ...[init]) => read(urlOf(path, init), init),
    request: async (path, ...[init]) => bodyOf(await read(urlOf(path, init), init)),
    async *pages(path, ...[init]) {
      let url: string | null = urlOf(path, init);
      while (url !== null) {
        const page: ResponseBody<typeof path> = bodyOf(await read<typeof path>(url, init));
        yield page;
        url = (page as { links: { next: string | null } }).links.next;
      }
    },
    async *items(path, ...init) {
      for await (const page of client.pages(path, ...init)) yield* (page as { data: ItemOf<typeof path>[] }).data;
    },
    changes: (changeOptions = {}) =>
      followChanges(baseUrl, requestHeaders(options.headers, undefined, userAgent), transport, changeOptions),
  };
  return client;
}

function bodyOf<P extends ReadPath>(result: ReadResult<P>): ResponseBody<P> {
  if (result.error) throw result.error;
  return result.data;
}

function requestHeaders(common: Record<string, string> | undefined, own: object | undefined, userAgent: string | undefined): Headers {
  const headers = new Headers(common);
  for (const [name, value] of Object.entries(own ?? {})) if (typeof value === 'string') headers.set(name, value);
  if (userAgent !== undefined && !headers.has('user-agent')) headers.set('user-agent', userAgent);
  return headers;
}

/** One URL through the ETag cache: its ETag goes out unless the caller sent a validator of its own. */
async function readUrl<P extends ReadPath>(
  url: string,
  headers: Headers,
  signal: AbortSignal | undefined,
  transport: Transport,
  cache: EtagCache | undefined,
): Promise<ReadResult<P>> {
  const ownValidator = headers.has('if-none-match') || headers.has('if-modified-since');
  const cached = ownValidator ? undefined : cache?.get(url);
  if (cached !== undefined) headers.set('if-none-match', cached.etag);
  const response = await sendWithRetries(url, headers, signal, transport);
  if (response.status === 304 && cached !== undefined) return { data: cached.body as ResponseBody<P>, response, fromCache: true };
  if (!response.ok) return { error: await errorOf(response), response, fromCache: false };
  const isJson = /\bjson\b/i.test(response.headers.get('content-type') ?? '');
  const data = (isJson ? await response.json() : await response.text()) as ResponseBody<P>;
  const etag = response.headers.get('etag');
  if (cache !== undefined && etag !== null) cache.set(url, { etag, body: data });
  return { data, response, fromCache: false };
}
