import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SCHEMA_FILE, renderSchema } from './renderSchema.ts';

// `npm run client:generate`: rewrites client/schema.ts from the current OpenAPI document. Run it
// after changing an endpoint or a schema; client.unit.test.ts fails until the two agree.
await writeFile(SCHEMA_FILE, await renderSchema());
console.log(`wrote ${fileURLToPath(SCHEMA_FILE)}`);
