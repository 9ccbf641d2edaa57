import { loadConfig } from '../../services/config/index.ts';
import { metaResources } from '../resources/metaResources.ts';

/** The OpenAPI document committed at the repository's root, for those who read it without running the API. */
export const OPENAPI_FILE = new URL('../../openapi.json', import.meta.url);

/**
 * The document the API serves at `/api/v1/openapi.json` under the default configuration (what
 * `npm start` serves), as the committed file holds it: the same builder the API starts with, so
 * the file and the served document differ only by the deployment's `API_PUBLIC_URL` and `SITE_URL`.
 */
export function servedOpenApi(env: Record<string, string> = {}): unknown {
  return metaResources(loadConfig(env)).openApiDocument({});
}

/** The file's text: deterministic, so regenerating an unchanged document changes no byte. */
export function renderOpenApiFile(): string {
  return `${JSON.stringify(servedOpenApi(), null, 2)}\n`;
}
