import { readFile, readdir } from 'node:fs/promises';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { exampleEvents } from '../../test/support/exampleEvents.ts';
import { EVENT_SCHEMA_BASE_ID, EVENT_SCHEMA_FILE_SUFFIX, EVENT_TYPES, eventSchemaFiles } from './index.ts';

const jsonDir = new URL('./json/', import.meta.url);
const regenerate = 'run `node scripts/exportEventSchemas.ts` and commit schemas/events/json/';

const committedFiles = async (): Promise<Map<string, string>> => {
  const names = (await readdir(jsonDir)).filter((name) => name.endsWith(EVENT_SCHEMA_FILE_SUFFIX)).sort();
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(new URL(name, jsonDir), 'utf8')] as const)));
};

describe('schemas/events/json', () => {
  it(`holds exactly one file per event type (otherwise ${regenerate})`, async () => {
    const committed = [...(await committedFiles()).keys()];
    expect(committed).toEqual([...eventSchemaFiles().keys()].sort());
  });

  it.each([...eventSchemaFiles()])(`%s matches the TypeBox schema (otherwise ${regenerate})`, async (name, expected) => {
    const committed = await readFile(new URL(name, jsonDir), 'utf8').catch(() => '(missing)');
    expect(committed).toBe(expected);
  });

  it('names each schema by its type under the published base id', async () => {
    for (const [name, text] of await committedFiles()) {
      const type = name.slice(0, -EVENT_SCHEMA_FILE_SUFFIX.length);
      expect(JSON.parse(text)).toMatchObject({ $id: `${EVENT_SCHEMA_BASE_ID}${type}.json`, title: type });
    }
    expect(EVENT_TYPES.length).toBe(36);
  });

  // What the write side would do with the files alone: no TypeBox, no code of ours.
  it('validates every example event with a fresh ajv reading only the JSON files', async () => {
    const ajv = new Ajv({ allErrors: true, strict: true, discriminator: true });
    addFormats.default(ajv);
    for (const text of (await committedFiles()).values()) ajv.addSchema(JSON.parse(text) as object);
    for (const event of exampleEvents) {
      const validate = ajv.getSchema(`${EVENT_SCHEMA_BASE_ID}${event.type}.json`);
      expect(validate?.(event), JSON.stringify(validate?.errors)).toBe(true);
    }
    const published = exampleEvents.find((event) => event.type === 'competition.published');
    const validate = ajv.getSchema(`${EVENT_SCHEMA_BASE_ID}competition.published.json`);
    expect(validate?.({ ...published, eventId: published?.eventId.toUpperCase() })).toBe(false);
  });
});
