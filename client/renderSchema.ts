import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApi } from '../api/openapi/index.ts';

/** Where the generated types live, committed so that a client needs no build step. */
export const SCHEMA_FILE = new URL('./schema.ts', import.meta.url);

const HEADER = `${COMMENT_HEADER.trimEnd()}\n// From the OpenAPI document the API serves (api/openapi): \`npm run client:generate\` rewrites it.\n\n`;

/**
 * The TypeScript types of the OpenAPI document, as the server builds it (same builder, same
 * schemas; the server URL plays no part in the types). Deterministic: the same document gives
 * the same bytes, which is what the drift test compares.
 */
export async function renderSchema(): Promise<string> {
  const ast = await openapiTS(buildOpenApi() as unknown as OpenAPI3, { silent: true });
  return HEADER + astToString(ast);
}
