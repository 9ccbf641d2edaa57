import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../test/api/apiHarness.ts';
import { NOW, calendarEvents } from '../test/api/calendarSeed.ts';
import type { Listening } from '../test/api/listenOnFreePort.ts';
import { startApiOnPort } from '../test/api/startApiOnPort.ts';

// The client package as a consumer gets it: `npm pack` in client/ (which must build it: the
// stale dist is removed first), the tarball installed into a project of its own with no access
// to this repository's node_modules, and the installed package's compiled example run by Node
// against the real API on a real port over the real database, its links pointing back at it.

const run = promisify(execFile);
const clientDir = fileURLToPath(new URL('.', import.meta.url));
// npm's own variables (set when `npm test` runs this) would steer the child npm to this repository.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
let database: Database;
let server: Listening;
let scratch: string;

beforeAll(async () => {
  database = await openDatabase('client_example');
  await database.project(calendarEvents, NOW);
  server = await startApiOnPort(database.db, NOW, (origin) => ({ API_PUBLIC_URL: origin }));
  scratch = await mkdtemp(join(tmpdir(), 'federation-client-'));
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

interface Packed {
  filename: string;
  files: { path: string }[];
}

describe('the packed client package', () => {
  it('builds on npm pack, installs offline with no dependency, and runs its example against the API', { timeout: 180_000 }, async () => {
    await rm(join(clientDir, 'dist'), { recursive: true, force: true });
    const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: clientDir, env });
    const [tarball] = JSON.parse(packed.stdout) as Packed[];
    const files = tarball?.files.map((f) => f.path) ?? [];
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'example.ts',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/example.js',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.test.ts') || f === 'generate.ts')).toEqual([]);

    const app = join(scratch, 'app');
    await mkdir(app);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', join(scratch, tarball!.filename), '--offline', '--no-audit', '--no-fund'], { cwd: app, env });

    const example = join(app, 'node_modules', 'federation-read-client', 'dist', 'example.js');
    const { stdout } = await run(process.execPath, [example, `${server.origin}/api/v1`, 'LV', '2'], { cwd: app, env });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\d+ competitions in LV; the latest \d+:$/);
    expect(stdout).toContain('Riga Open 2025');
    expect(stdout).toMatch(/\n[\w-]+: \d+ categories \(/);
    // More competitions than one page of 2 holds: items() went from page to page to the last.
    const { meta } = (await (await fetch(`${server.origin}/api/v1/competitions?limit=1`)).json()) as { meta: { total: number } };
    expect(meta.total).toBeGreaterThan(4);
    expect(stdout).toContain(`every published competition by name, 2 a page: ${meta.total}, from Autumn Tie to Vilnius Autumn 2024`);
    expect(stdout).toContain('again: 304, from the ETag cache: true, ');
    expect(lines.at(-1)).toBe(
      'limit=500 answered 400 INVALID_REQUEST: limit: must be an integer from 1 to 100 (got 500) (request id given)',
    );
  });
});
