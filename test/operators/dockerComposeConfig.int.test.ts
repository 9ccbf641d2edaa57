import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { installDebianPackage } from '../../infra/installDebianPackage.ts';
import { ROOT } from '../../infra/paths.ts';
import { run } from '../../infra/processes.ts';
import type { ComposeFile } from './composeProblems.ts';
import { checkCompose } from './dockerComposeChecks.ts';

// docker-compose.yml through a real compose implementation: Debian's docker-compose validates the
// file against the compose schema, resolves anchors, merges and defaults, and prints the result
// without a Docker engine (none runs here). The project's checks then run on what it printed, so
// they hold for the file as compose reads it, not only as our YAML parser does.

let dockerCompose: string;
let scratch: string;

beforeAll(async () => {
  dockerCompose = await installDebianPackage(
    {
      pkg: 'docker-compose',
      executable: 'docker-compose',
      otherwise: 'install docker-compose (1.29 or later) by hand, or Docker with its compose plugin',
    },
    (line) => process.stderr.write(`[docker-compose] ${line}\n`),
  );
  scratch = mkdtempSync(join(tmpdir(), 'compose-'));
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function composeConfig(file: string, ...args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    return { ok: true, output: await run(dockerCompose, ['-f', file, ...args, 'config'], { cwd: ROOT }) };
  } catch (error) {
    return { ok: false, output: error instanceof Error ? error.message : String(error) };
  }
}

describe('docker-compose.yml as docker-compose reads it', () => {
  it('is valid, and passes every check after normalisation', async () => {
    const { ok, output } = await composeConfig(join(ROOT, 'docker-compose.yml'));
    expect(ok, output).toBe(true);
    const compose = parse(output) as ComposeFile;
    expect(checkCompose(compose)).toEqual([]);
    expect(compose.services.projector?.mem_limit).toBe('512m');
    expect(compose.services.demo?.profiles).toEqual(['demo']);
  });

  it('is valid with the demo profile, which holds the demo publisher', async () => {
    const { ok, output } = await composeConfig(join(ROOT, 'docker-compose.yml'), '--profile', 'demo');
    expect(ok, output).toBe(true);
    expect(checkCompose(parse(output) as ComposeFile)).toEqual([]);
    const services = await run(dockerCompose, ['-f', join(ROOT, 'docker-compose.yml'), '--profile', 'demo', 'config', '--services'], {
      cwd: ROOT,
    });
    expect(services.split('\n')).toContain('demo');
  });

  // The parser is only worth running if it rejects: a misspelt option and a bad duration.
  it.each([
    ['an unknown option', 'services:\n  api:\n    image: x:1.0.0\n    restart_policy: always\n', /restart_policy/],
    ['a bad memory limit', 'services:\n  api:\n    image: x:1.0.0\n    mem_limit: [512]\n', /mem_limit/],
  ])('rejects %s', async (_, text, expected) => {
    const file = join(scratch, 'compose.yml');
    writeFileSync(file, text);
    const { ok, output } = await composeConfig(file);
    expect(ok).toBe(false);
    expect(output).toMatch(expected);
  });
});
