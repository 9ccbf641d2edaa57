import type { EndpointName } from '../../schemas/api/endpoints.ts';
import type { Config } from '../../services/config/index.ts';
import { buildOpenApi } from '../openapi/index.ts';
import { apiUrls } from './apiUrls.ts';
import { referencePage } from './referencePage.ts';
import { rootDocument } from './rootDocument.ts';

/** The endpoints that describe the API rather than read data: their bodies are fixed at start-up. */
export type MetaEndpoint = Extract<EndpointName, 'openApiDocument' | 'root' | 'referencePage' | 'referencePageAsset'>;

export type MetaResources = { readonly [E in MetaEndpoint]: (params: Readonly<Record<string, string>>) => unknown };

const META_ENDPOINTS: ReadonlySet<EndpointName> = new Set<MetaEndpoint>(['openApiDocument', 'root', 'referencePage', 'referencePageAsset']);

export function isMetaEndpoint(name: EndpointName): name is MetaEndpoint {
  return META_ENDPOINTS.has(name);
}

/**
 * The bodies of the meta endpoints, built once: the OpenAPI document, the root document and the
 * reference page with its files (read from the disk here, so a missing file stops the start).
 */
export function metaResources(config: Readonly<Config>): MetaResources {
  const openApi = buildOpenApi({ serverUrl: `${config.api.publicUrl}${config.api.basePath}`, siteUrl: config.api.siteUrl });
  const { title, version } = openApi.info;
  const root = rootDocument({ urls: apiUrls(config), title, version });
  const reference = referencePage({ basePath: config.api.basePath, title });
  return {
    openApiDocument: () => openApi,
    root: () => root,
    referencePage: () => reference.page,
    referencePageAsset: (params) => reference.asset(params.file ?? ''),
  };
}
