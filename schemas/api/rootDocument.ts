import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';

/** One endpoint as the root document lists it. */
export const RootEndpoint = Type.Object(
  {
    name: Type.String({ description: "The endpoint's name in the catalogue (the OpenAPI `operationId` without its `get` prefix)." }),
    method: Type.Literal('GET', { description: 'Every endpoint also answers `HEAD` (headers only).' }),
    path: Type.String({
      description: 'Path template relative to the base path, as in the OpenAPI document, e.g. `/competitions/{idOrSlug}`.',
    }),
    summary: Type.String(),
    href: Type.String({ description: 'Absolute URL; a template (RFC 6570 level 1) when `templated` is true.' }),
    templated: Type.Boolean({ description: 'Whether `href` holds `{parameters}` to fill in before it is requested.' }),
  },
  { title: 'RootEndpoint' },
);

/** Body of `GET /api/v1` (and `/api/v1/`): where a client starts. */
export const RootDocument = Type.Object(
  {
    data: Type.Object({
      title: Type.String(),
      version: Type.String({ description: 'Version of the API description (`info.version` of the OpenAPI document).' }),
      endpoints: Type.Array(RootEndpoint, { description: 'Every endpoint of the API, in the order of the OpenAPI document.' }),
    }),
    links: Type.Object({
      self: Type.String(),
      docs: Type.String({ description: 'The API reference page (HTML).' }),
      openapi: Type.String({ description: 'The OpenAPI 3.1 document.' }),
    }),
  },
  { title: 'RootDocument' },
);

export type RootEndpoint = Static<typeof RootEndpoint>;
export type RootDocument = Static<typeof RootDocument>;
