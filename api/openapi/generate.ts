import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILE, renderOpenApiFile } from './openApiFile.ts';

// `npm run openapi`: rewrites openapi.json from the document the API serves. Run it after changing
// an endpoint, a schema or a header; openApiFile.unit.test.ts fails until the two agree.
await writeFile(OPENAPI_FILE, renderOpenApiFile());
console.log(`wrote ${fileURLToPath(OPENAPI_FILE)}`);
