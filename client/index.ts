import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.ts';

export type { components, operations, paths };
/** The resources and envelopes of the API by name (`Schemas['Competition']`, `Schemas['Error']`). */
export type Schemas = components['schemas'];
export type FederationClient = Client<paths>;

/**
 * A typed client of the API: paths, query parameters, bodies and error envelopes come from the
 * OpenAPI document (client/schema.ts). `baseUrl` ends in the version segment, e.g.
 * `https://api.example.org/api/v1`.
 *
 * Multi-value parameters go out as one comma list (`status=open,completed`), as the API reads
 * them; a repeated parameter would answer 400. Everything else in `options` (a custom fetch,
 * headers) passes to openapi-fetch.
 */
export function createFederationClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): FederationClient {
  return createClient<paths>({ querySerializer: { array: { style: 'form', explode: false } }, ...options, baseUrl });
}
