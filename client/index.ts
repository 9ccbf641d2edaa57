import type { components, operations, paths } from './schema.ts';

export type { components, operations, paths };
/** The resources and envelopes of the API by name (`Schemas['Competition']`, `Schemas['Error']`). */
export type Schemas = components['schemas'];

export { createFederationClient } from './federationClient.ts';
export type { FederationClient, FederationClientOptions, ReadResult } from './federationClient.ts';
export { ChangeFeedGoneError, FederationApiError } from './federationApiError.ts';
export type { ChangesOptions } from './changeFeed.ts';
export { MemoryEtagCache } from './etagCache.ts';
export type { CachedBody, EtagCache } from './etagCache.ts';
export { DEFAULT_RETRY, parseRetryAfter, retryDelay } from './retryPolicy.ts';
export type { RetryOptions, RetryPolicy } from './retryPolicy.ts';
export type {
  Change,
  ChangePage,
  ChangesQuery,
  ErrorBody,
  ItemOf,
  ListPath,
  QueryOf,
  ReadPath,
  RequestArgs,
  RequestOptions,
  RequestParams,
  ResponseBody,
} from './paths.ts';
export { CLIENT_VERSION } from './version.ts';
