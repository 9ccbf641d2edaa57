export { buildOpenApi } from './buildOpenApi.ts';
export type { OpenApiDocument, OpenApiOptions } from './buildOpenApi.ts';
