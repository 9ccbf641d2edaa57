import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installSchemathesis } from '../../infra/localSchemathesis.ts';
import { ROOT, RUN } from '../../infra/paths.ts';
import { LISTED_ENDPOINT_NAMES } from '../../schemas/api/index.ts';
import { readMeta } from '../../services/mongo/readModelMeta.ts';
import { openDatabase, type Database } from './apiHarness.ts';
import { NOW, calendarEvents, ids } from './calendarSeed.ts';
import type { Listening } from './listenOnFreePort.ts';
import { clubs, registryEvents } from './registrySeed.ts';
import { startApiOnPort } from './startApiOnPort.ts';

// A public OpenAPI fuzzer (schemathesis, pinned) against the real app on a real port, over the
// seeded calendar and registry: it reads only the served document, generates valid and invalid
// requests from it, and runs every check it has. Any disagreement between the document and
// the server fails the run. The one rule it cannot read from a schema (`dateTo` not before
// `dateFrom`, stated in both descriptions) and the one value it cannot make up (a feed cursor,
// issued by the server) are taught to its generator of valid cases by the hook file next to
// this test; no check is disabled or narrowed.

const OUTPUT = join(RUN, 'test-output');
const JUNIT = join(OUTPUT, 'schemathesis-junit.xml');
const LOG = join(OUTPUT, 'schemathesis.log');
const HOOKS = join(ROOT, 'test/api/schemathesisHooks.py');
/** Its working folder and configuration, written on every run (under the git-ignored .run). */
const WORK = join(RUN, 'schemathesis');
const CONFIG = join(WORK, 'schemathesis.toml');

// A fixed seed, so a run draws its cases the same way each time and a failure comes back (the
// log prints a curl command per failure). 150 cases per operation and phase: about 7,000
// requests in about a minute on two cores.
const SEED = '20250614';
const MAX_EXAMPLES = '150';

let database: Database;
let server: Listening;
let origin: string;
let st: string;
/** A cursor of the served read model: valid cases of /changes carry it (schemathesisHooks.py). */
let changesCursor: string;

beforeAll(async () => {
  st = await installSchemathesis((line) => console.log(line));
  database = await openDatabase('api_schemathesis');
  await database.project([...calendarEvents, ...registryEvents], NOW);
  changesCursor = `${(await readMeta(database.db)).generation}.0`;
  // Its API_PUBLIC_URL is its own origin, so the document's server is this one. The fuzzer sends
  // thousands of requests from one address; a 429 would be the limit at work, not a finding.
  server = await startApiOnPort(database.db, NOW, (own) => ({ API_PUBLIC_URL: own, RATE_LIMIT_MAX: '1000000' }));
  origin = server.origin;
}, 600_000);
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

/**
 * The run's configuration. Path parameters draw seeded ids and slugs half the time (and what
 * the fuzzer makes up otherwise), so the detail operations are tested past their 404. No
 * cache: a run never replays the failures of an earlier one. Every warning fails the run.
 */
function configuration(): string {
  const list = (values: readonly string[]): string => `[${values.map((value) => JSON.stringify(value)).join(', ')}]`;
  return [
    'color = false',
    '[cache]',
    'enabled = false',
    '[warnings]',
    'fail-on = true',
    '[dictionaries.competition]',
    `values = ${list([ids.riga, 'riga-open-2025', ids.jurmala, 'tallinn-cup'])}`,
    '[dictionaries.club]',
    `values = ${list([clubs.aurora, clubs.tango, clubs.archived])}`,
    '[parameters]',
    '"path.idOrSlug" = { dictionary = "competition", probability = 0.5 }',
    '"path.id" = { dictionary = "club", probability = 0.5 }',
    '',
  ].join('\n');
}

function runSchemathesis(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(st, ['--config-file', CONFIG, ...args], {
      cwd: WORK,
      env: { ...process.env, SCHEMATHESIS_HOOKS: HOOKS, SCHEMATHESIS_CHANGES_CURSOR: changesCursor, NO_COLOR: '1', COLUMNS: '120' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('schemathesis against the served OpenAPI document', () => {
  it('finds no failure with every check, in every phase that reads the document', async () => {
    mkdirSync(OUTPUT, { recursive: true });
    mkdirSync(WORK, { recursive: true });
    writeFileSync(CONFIG, configuration());
    const started = Date.now();
    const { code, output } = await runSchemathesis([
      'run',
      `${origin}/api/v1/openapi.json`,
      '--checks',
      'all',
      '--phases',
      'examples,coverage,fuzzing',
      '--mode',
      'all',
      '--seed',
      SEED,
      '--max-examples',
      MAX_EXAMPLES,
      '--workers',
      '2',
      '--no-color',
      '--report',
      'junit',
      '--report-junit-path',
      JUNIT,
      // Not written to .hypothesis/ in the checkout: every run starts from the seed alone.
      '--generation-database',
      'none',
    ]);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const generated = Number(/Test cases:\s+(\d+) generated/.exec(output)?.[1] ?? 0);
    writeFileSync(LOG, `${output}\nexit ${String(code)} after ${seconds} s\n`);
    console.log(`schemathesis: exit ${String(code)}, ${generated} test cases in ${seconds} s; output in ${LOG}, JUnit report in ${JUNIT}`);
    if (code !== 0) console.log(output);
    expect(code, `schemathesis failed; its output:\n${output}`).toBe(0);
    // A run that tested little would also exit 0: every operation, both phases, thousands of
    // cases. Every GET and HEAD of the document but one: schemathesis selects no GET of the
    // document it was pointed at (29 of 30 with 4.32.5).
    const selected = /Selected: (\d+)\/(\d+)/.exec(output);
    expect(selected?.[1]).toBe(selected?.[2]);
    expect(Number(/Tested: (\d+)/.exec(output)?.[1])).toBe(Number(selected?.[1]));
    expect(Number(selected?.[1])).toBeGreaterThanOrEqual(LISTED_ENDPOINT_NAMES.length * 2 - 1);
    expect(output).toMatch(/✅ Coverage/);
    expect(output).toMatch(/✅ Fuzzing/);
    expect(generated).toBeGreaterThan(5000);
    expect(readFileSync(JUNIT, 'utf8')).toContain('<testsuite');
  }, 600_000);
});
