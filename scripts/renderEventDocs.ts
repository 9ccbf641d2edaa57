// Writes the per-type field tables of docs/events.md from the event schemas (schemas/events/).
// A unit test fails when the committed page differs from what this writes: run
// `node scripts/renderEventDocs.ts` after changing an event schema.
import { readFile, writeFile } from 'node:fs/promises';
import { renderEventFieldTables, withEventFieldTables } from './eventFieldTables.ts';

const page = new URL('../docs/events.md', import.meta.url);
await writeFile(page, withEventFieldTables(await readFile(page, 'utf8'), renderEventFieldTables()));
console.log(`wrote the event field tables of ${page.pathname}`);
