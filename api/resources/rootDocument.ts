import { ENDPOINTS, LISTED_ENDPOINT_NAMES } from '../../schemas/api/endpoints.ts';
import type { RootDocument } from '../../schemas/api/rootDocument.ts';
import type { ApiUrls } from './apiUrls.ts';

export interface RootDocumentOptions {
  readonly urls: ApiUrls;
  /** `info` of the OpenAPI document, so both name the same API and version. */
  readonly title: string;
  readonly version: string;
}

/**
 * `GET /api/v1`: every endpoint the OpenAPI document describes, in its order, with an absolute
 * link on the public URL (a template where the path has parameters), and the links to the
 * reference page and the document. Built from the catalogue, so it cannot list a path that
 * does not answer, nor miss one that does.
 */
export function rootDocument(options: RootDocumentOptions): RootDocument {
  const { urls } = options;
  return {
    data: {
      title: options.title,
      version: options.version,
      endpoints: LISTED_ENDPOINT_NAMES.map((name) => {
        const definition = ENDPOINTS[name];
        return {
          name,
          method: 'GET',
          path: definition.path,
          summary: definition.summary,
          href: urls.api(definition.path),
          templated: definition.pathParameters.length > 0,
        };
      }),
    },
    links: {
      self: urls.api(ENDPOINTS.root.path),
      docs: urls.api(ENDPOINTS.referencePage.path),
      openapi: urls.api(ENDPOINTS.openApiDocument.path),
    },
  };
}
