import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/paths.ts';
import { documentedTexts, imageScripts } from './dockerComposeImageCommands.ts';

// The commands README.md and docs/ give for the image (`node dist/projector/status.js`), run
// from a build the way the Dockerfile makes it (tsc -p tsconfig.build.json): each documented
// script is in the build output, and each operator's command answers `--help` there, naming
// itself as it is run in the image, never by an npm script the image does not have.

const execFileAsync = promisify(execFile);
// Under .run/ so that the built scripts resolve node_modules and package.json's "type" as in /app.
let build = '';

beforeAll(async () => {
  build = mkdtempSync(join(ROOT, '.run', 'image-build-'));
  await execFileAsync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(build, 'dist')],
    {
      cwd: ROOT,
    },
  ).catch((error: { stdout?: string }) => {
    // A type error elsewhere still emits every file; a missing one fails below, by name.
    process.stderr.write(`tsc reported: ${error.stdout ?? 'an error'}\n`);
  });
}, 300_000);

afterAll(() => {
  if (build) rmSync(build, { recursive: true, force: true });
});

describe('the commands the docs give for the image', () => {
  const scripts = imageScripts(documentedTexts());

  it('are each in the build output', () => {
    expect(scripts.filter((script) => !existsSync(join(build, script)))).toEqual([]);
  });

  const operators = ['dist/projector/status.js', 'dist/projector/deadLetters.js', 'dist/projector/rebuild.js', 'dist/generator/cli.js'];
  it.each(operators)('%s answers --help there', async (script) => {
    expect(scripts).toContain(script);
    const { stdout } = await execFileAsync(process.execPath, [join(build, script), '--help'], { cwd: build, timeout: 30_000 });
    expect(stdout).toMatch(/^usage: /);
    if (script.startsWith('dist/projector/')) {
      expect(stdout).toContain(`node ${script}`);
      expect(stdout).not.toContain('npm run');
    }
  });
});
