import type { TSchema } from '@sinclair/typebox';
import { ENDPOINTS, LISTED_ENDPOINT_NAMES } from '../../schemas/api/endpoints.ts';
import type { EndpointDefinition } from '../../schemas/api/endpoints.ts';
import { ErrorEnvelope } from '../../schemas/api/errorEnvelope.ts';
import type { ErrorCode } from '../http/apiError.ts';
import { collectNamedSchemas, toOpenApiSchema } from './toOpenApiSchema.ts';
import type { Json } from './toOpenApiSchema.ts';
import { HEADERS_OF_200, HEADERS_OF_304, OPENAPI_HEADERS, headerRefs } from './openApiHeaders.ts';
import { errorResponseComponents, errorResponseRefs } from './openApiErrorResponses.ts';
import { OPENAPI_DESCRIPTION } from './openApiDescription.ts';
import { API_VERSION } from './apiVersion.ts';

const QUERY_RULES =
  'An unknown query parameter (`<name>: unknown parameter`) or one given more than once (`<name>: given more than once`) answers 400, as does any value outside its accepted values.';

export interface OpenApiOptions {
  /** Server URL, ending in the version segment; default `/api/v1` (relative to the document). */
  readonly serverUrl?: string;
  readonly title?: string;
  /** The public web site (`SITE_URL`), whose terms of use the data is published under; absent, no contact or licence is stated. */
  readonly siteUrl?: string;
}

export type OpenApiDocument = Record<string, unknown> & {
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
};

/** Who publishes the data and on what terms: both are the public site's. */
function publisher(siteUrl: string | undefined): Record<string, unknown> {
  if (siteUrl === undefined) return {};
  return {
    contact: { name: 'The federation (public web site)', url: siteUrl },
    license: { name: 'Terms of use: credit the federation and link back to the competition page', url: siteUrl },
  };
}

/** The 304 every GET may answer. */
const NOT_MODIFIED = {
  description:
    '304: `If-None-Match` matches the current ETag (on a cache hit or miss), or, without it, `If-Modified-Since` is not older than `Last-Modified`. No body. Spends rate-limit budget.',
  headers: headerRefs(HEADERS_OF_304),
};

/** The request headers every GET reads. */
const HEADER_PARAMETERS = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'ETags of a previous response (a list, or `*`); a match answers 304 with no body.',
    schema: { type: 'string' },
  },
  IfModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    required: false,
    description:
      'An HTTP date, such as a previous `Last-Modified`; where the response has a `Last-Modified` no newer than it, answers 304 with no body. Ignored when `If-None-Match` is sent.',
    schema: { type: 'string' },
  },
  LastEventId: {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description:
      'Server-Sent Events only: the cursor of the last change received (an `EventSource` sends it by itself when it reconnects); takes precedence over `after`.',
    schema: { type: 'string' },
  },
  RequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description: 'Echoed when it matches `[A-Za-z0-9_.:-]` and has at most 64 characters; otherwise replaced by a generated id.',
    schema: { type: 'string' },
  },
};

/**
 * The OpenAPI 3.1 document of the API, generated from the endpoint catalogue and the same
 * TypeBox schemas that validate requests, so the description and the behaviour agree.
 */
export function buildOpenApi(options: OpenApiOptions = {}): OpenApiDocument {
  const responseSchemas = LISTED_ENDPOINT_NAMES.map((name) => ENDPOINTS[name].response);
  const named = collectNamedSchemas([...responseSchemas, ErrorEnvelope]);
  const names = new Set(named.keys());
  const schemas = Object.fromEntries([...named].map(([name, schema]) => [name, toOpenApiSchema(schema, names)]));

  const paths = Object.fromEntries(
    LISTED_ENDPOINT_NAMES.map((name) => {
      const definition = ENDPOINTS[name];
      return [definition.path, pathItem(definition, names)];
    }),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Competition Calendar and Member Registry API',
      version: API_VERSION,
      description: OPENAPI_DESCRIPTION,
      ...publisher(options.siteUrl),
    },
    servers: [{ url: options.serverUrl ?? '/api/v1', description: 'The API; every path below is relative to it.' }],
    // Anonymous: no operation takes credentials (an empty requirement list, stated once for all).
    security: [],
    tags: [
      { name: 'Calendar', description: 'Published competitions and their categories.' },
      { name: 'Registry', description: 'Dancers, coaches, judges and clubs.' },
      { name: 'Changes', description: 'Every public change, in order: follow the federation live instead of polling the listings.' },
      { name: 'Meta', description: 'Where to start (the root document), this description and its reference page.' },
    ],
    paths,
    components: {
      schemas,
      headers: OPENAPI_HEADERS,
      responses: { NOT_MODIFIED, ...errorResponseComponents() },
      parameters: HEADER_PARAMETERS,
    },
  };
}

function pathItem(definition: EndpointDefinition, names: ReadonlySet<string>): Record<string, unknown> {
  const errors: ErrorCode[] = ['INVALID_REQUEST'];
  if (definition.answersNotFound) errors.push('NOT_FOUND');
  if (definition.answersGone) errors.push('CURSOR_EXPIRED');
  errors.push('METHOD_NOT_ALLOWED', 'URI_TOO_LONG', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE');
  const shared = {
    tags: [definition.tag],
    parameters: [
      ...definition.pathParameters.map((parameter) => ({
        name: parameter.name,
        in: 'path',
        required: true,
        description: parameter.description,
        schema: toOpenApiSchema(parameter.schema, names),
      })),
      ...queryParameters(definition.query.properties, names),
      ...(definition.stream
        ? [{ $ref: '#/components/parameters/LastEventId' }]
        : [{ $ref: '#/components/parameters/IfNoneMatch' }, { $ref: '#/components/parameters/IfModifiedSince' }]),
      { $ref: '#/components/parameters/RequestId' },
    ],
  };
  const { stream } = definition;
  const otherResponses = { ...(stream ? {} : { '304': { $ref: '#/components/responses/NOT_MODIFIED' } }), ...errorResponseRefs(errors) };
  const ok = stream ? 'Never cached (`Cache-Control: no-store`).' : `Cached server-side for ${definition.ttlSeconds} s.`;
  const streamed = stream ? { [stream.mediaType]: { schema: { type: 'string', description: stream.description } } } : {};
  const operationSuffix = definition.name.charAt(0).toUpperCase() + definition.name.slice(1);
  return {
    get: {
      ...shared,
      operationId: `get${operationSuffix}`,
      summary: definition.summary,
      description: `${definition.description} ${QUERY_RULES}`,
      responses: {
        '200': {
          description: ok,
          headers: headerRefs(HEADERS_OF_200),
          content: { [definition.mediaType ?? 'application/json']: { schema: responseSchema(definition.response, names) }, ...streamed },
        },
        ...otherResponses,
      },
    },
    head: {
      ...shared,
      operationId: `head${operationSuffix}`,
      summary: `${definition.summary} (headers only)`,
      description: 'Same as GET, without a body.',
      responses: { '200': { description: ok, headers: headerRefs(HEADERS_OF_200) }, ...otherResponses },
    },
  };
}

/** A response body's schema, by reference where the body is itself a named component (the root document). */
function responseSchema(schema: TSchema, names: ReadonlySet<string>): Json {
  return typeof schema.title === 'string' && names.has(schema.title)
    ? { $ref: `#/components/schemas/${schema.title}` }
    : toOpenApiSchema(schema, names);
}

function queryParameters(properties: Record<string, TSchema>, names: ReadonlySet<string>): Record<string, unknown>[] {
  return Object.entries(properties).map(([name, property]) => {
    const schema = toOpenApiSchema(property, names) as Record<string, Json>;
    const { description, ...rest } = schema;
    const list = rest.type === 'array';
    return {
      name,
      in: 'query',
      required: false,
      description: typeof description === 'string' ? description : '',
      schema: rest,
      ...(list ? { style: 'form', explode: false } : {}),
    };
  });
}
