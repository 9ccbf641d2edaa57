import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DataListing, EndpointName } from '../../schemas/api/endpoints.ts';
import type { BodyCache, CachedBody } from './bodyCache.ts';
import { notModifiedSince } from './conditionalGet.ts';
import { EXPOSED_HEADERS } from './cors.ts';
import { hitAnswer } from './hitAnswer.ts';
import { rateLimitHeaders, type RateLimitPolicy } from './rateLimitHeaders.ts';
import type { RateLimitDecision, RateLimitStore } from './rateLimitStore.ts';
import { acceptedRequestId } from './requestId.ts';
import type { ResolvedUrl, ResolvedUrls } from './resolvedUrls.ts';
import { cacheControlOf } from './replayHit.ts';
import { ifNoneMatchMatches } from './weakEtag.ts';

/** What one request answered before Koa was: for the request log and the metrics. */
export interface EarlyAnswer {
  readonly method: string;
  /** The request path without its query (Koa's `ctx.path`). */
  readonly path: string;
  readonly status: number;
  readonly requestId: string;
  readonly route: EndpointName;
  /** performance.now() when the request arrived. */
  readonly startedAt: number;
}

export interface EarlyHitOptions {
  readonly resolved: ResolvedUrls;
  readonly cache: BodyCache;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  readonly ttlSeconds?: Partial<Record<EndpointName, number>>;
  /** The data version of `listings` now, as the response cache reads it. */
  readonly dataVersion: (request: object, listings: readonly DataListing[]) => string | Promise<string>;
  /** Headers every answer of a data endpoint carries before the cache's (the pipeline's `beforeCache`), from the same read. */
  readonly dataHeaders?: (request: object) => ReadonlyArray<readonly [string, string]> | Promise<ReadonlyArray<readonly [string, string]>>;
  readonly rateLimit: {
    readonly store: RateLimitStore;
    readonly policy: RateLimitPolicy;
    readonly clientKey: (req: IncomingMessage) => string;
  };
  /** Called once the answer is written (the request log line, the metrics). */
  readonly answered: (answer: EarlyAnswer) => void;
}

/** Answers a request itself (true) or leaves it to Koa (false, nothing written, nothing counted). */
export type EarlyHit = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

const RATE_DECISION: unique symbol = Symbol('rateLimitDecision');
interface Decided {
  [RATE_DECISION]?: RateLimitDecision;
}

/** A rate-limit decision the early answer made for a request it then left to Koa (over budget), taken once. */
export function takeRateDecision(req: IncomingMessage): RateLimitDecision | undefined {
  const decided = (req as Decided)[RATE_DECISION];
  delete (req as Decided)[RATE_DECISION];
  return decided;
}

const EXPOSED = EXPOSED_HEADERS.join(',');

/**
 * The cache hit answered in the node:http listener, before Koa builds a context or runs a
 * middleware: a GET or HEAD of a request target the pipeline routed and validated before
 * (ResolvedUrls), whose entry is fresh under the current data version. It writes what the
 * pipeline's hit writes, header for header and in the same order: X-Request-Id, the CORS
 * headers, the rate-limit headers, the data headers, then hitAnswer's (the one replay of a stored
 * answer, which the response cache uses too) and the endpoint's own headers; it counts the request
 * against the client's budget and logs and measures it as the pipeline would. Anything else goes
 * to Koa untouched: an unknown target, a bypass, a miss, an OPTIONS; a client over its budget goes
 * to Koa with the decision already made, so the 429 is the pipeline's and the budget is spent once.
 */
export function earlyHit(options: EarlyHitOptions): EarlyHit {
  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const known = options.resolved.get(req.url ?? '');
    if (!known || known.bypass) return false;
    const at: Pending = { req, res, known, startedAt: performance.now() };
    const { definition } = known.endpoint;
    const current = definition.listings.length === 0 ? 'static' : options.dataVersion(req, definition.listings);
    if (typeof current !== 'string') return current.then((version) => lookUp(options, at, version));
    return lookUp(options, at, current);
  };
}

/** A request the early answer is looking at. */
interface Pending {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly known: ResolvedUrl;
  /** performance.now() when it arrived. */
  readonly startedAt: number;
}

/** The entry under `version`, then the client's budget: nothing is counted unless there is a hit to answer. */
function lookUp(options: EarlyHitOptions, at: Pending, version: string): boolean | Promise<boolean> {
  const hit = options.cache.get(at.known.cacheKey, options.clock(), version);
  if (!hit) return false;
  const { rateLimit } = options;
  let decision: RateLimitDecision;
  try {
    const pending = rateLimit.store.consume({ key: rateLimit.clientKey(at.req), nowMs: options.clock(), ...rateLimit.policy });
    if (pending instanceof Promise) {
      return pending.then(
        (later) => withinBudget(options, at, hit, later),
        () => false,
      );
    }
    decision = pending;
  } catch {
    // The pipeline's limiter logs a failing store and lets the request through.
    return false;
  }
  return withinBudget(options, at, hit, decision);
}

function withinBudget(options: EarlyHitOptions, at: Pending, hit: CachedBody, decision: RateLimitDecision): boolean | Promise<boolean> {
  if (!decision.allowed) {
    (at.req as Decided)[RATE_DECISION] = decision;
    return false;
  }
  if (at.known.endpoint.definition.listings.length === 0 || !options.dataHeaders) return writeHit(options, at, hit, decision, []);
  const data = options.dataHeaders(at.req);
  return data instanceof Promise
    ? data.then((headers) => writeHit(options, at, hit, decision, headers))
    : writeHit(options, at, hit, decision, data);
}

function writeHit(
  options: EarlyHitOptions,
  at: Pending,
  hit: CachedBody,
  decision: RateLimitDecision,
  dataHeaders: ReadonlyArray<readonly [string, string]>,
): boolean {
  const { req, res } = at;
  const { definition } = at.known.endpoint;
  const headers = req.headers;
  const requestId = acceptedRequestId(single(headers['x-request-id']));
  const ifNoneMatch = single(headers['if-none-match']) ?? '';
  const unchanged =
    ifNoneMatch !== ''
      ? ifNoneMatchMatches(ifNoneMatch, hit.etag)
      : notModifiedSince(single(headers['if-modified-since']) ?? '', hit.lastModified);
  const cacheControl = cacheControlOf(definition, options.ttlSeconds);
  const reply = hitAnswer(hit, options.clock(), cacheControl, unchanged ? 304 : 200, single(headers['accept-encoding']));
  res.statusCode = reply.status;
  res.setHeader('X-Request-Id', requestId);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED);
  for (const [name, value] of Object.entries(rateLimitHeaders(decision, options.rateLimit.policy))) res.setHeader(name, value);
  for (const [name, value] of dataHeaders) res.setHeader(name, value);
  for (const [name, value] of reply.headers) res.setHeader(name, name === 'Vary' ? `Origin, ${value}` : value);
  for (const [name, value] of Object.entries(definition.responseHeaders ?? {})) res.setHeader(name, value);
  if (reply.body && req.method !== 'HEAD') res.end(reply.body);
  else res.end();
  const path = (req.url ?? '').split('?', 1)[0] ?? '';
  options.answered({ method: req.method ?? 'GET', path, status: reply.status, requestId, route: definition.name, startedAt: at.startedAt });
  return true;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
