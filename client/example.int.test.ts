import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../test/api/apiHarness.ts';
import { NOW, calendarEvents } from '../test/api/calendarSeed.ts';
import type { Listening } from '../test/api/listenOnFreePort.ts';
import { startApiOnPort } from '../test/api/startApiOnPort.ts';

// client/example.ts as a consumer runs it: a separate Node process importing the package by its
// name, which resolves to the built client/dist (package.json's exports), against the real API
// on a real port over the real database. `npm test` builds the package before the tests run.

const run = promisify(execFile);
const root = new URL('..', import.meta.url);
let database: Database;
let server: Listening;

beforeAll(async () => {
  database = await openDatabase('client_example');
  await database.project(calendarEvents, NOW);
  server = await startApiOnPort(database.db, NOW);
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe('client/example.ts', () => {
  it('runs on the built package against the API', async () => {
    expect(existsSync(new URL('client/dist/index.js', root)), 'client/dist is missing: run `tsc -p client/tsconfig.json`').toBe(true);
    const { stdout } = await run(process.execPath, ['client/example.ts', `${server.origin}/api/v1`, 'LV'], { cwd: root });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\d+ competitions in LV; the latest \d+:$/);
    expect(stdout).toContain('Riga Open 2025');
    expect(stdout).toMatch(/\n[\w-]+: \d+ categories \(/);
    expect(lines.at(-1)).toBe('limit=500 answered 400: limit: must be an integer from 1 to 100 (got 500)');
  });
});
