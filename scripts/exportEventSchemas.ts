// Writes schemas/events/json/<type>.schema.json, the event contract as plain JSON Schema for the
// write side, and removes files of types that no longer exist. A unit test fails when the
// committed files differ from what this writes: run `node scripts/exportEventSchemas.ts`.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { EVENT_SCHEMA_FILE_SUFFIX, eventSchemaFiles } from '../schemas/events/index.ts';

const dir = new URL('../schemas/events/json/', import.meta.url);
const files = eventSchemaFiles();

await mkdir(dir, { recursive: true });
for (const name of await readdir(dir)) {
  if (name.endsWith(EVENT_SCHEMA_FILE_SUFFIX) && !files.has(name)) await rm(new URL(name, dir));
}
for (const [name, text] of files) await writeFile(new URL(name, dir), text);
console.log(`wrote ${files.size} event schemas to ${dir.pathname}`);
