import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECTOR_MEMORY_FLAGS } from './memoryBound.ts';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

// The flags are written out in a shell script, an npm script and a compose file; this keeps every
// projector launch on the measured bound.
describe('projector launches', () => {
  const flags = PROJECTOR_MEMORY_FLAGS.join(' ');

  it('npm start runs the projector with the memory flags', () => {
    const launch = read('scripts/start.sh')
      .split('\n')
      .find((line) => line.includes('projector/main.ts'));
    expect(launch).toContain(`node ${flags} projector/main.ts`);
  });

  it('npm run rebuild runs with the memory flags', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.rebuild).toContain(`node ${flags} projector/rebuild.ts`);
  });

  it("docker-compose's projector runs with the memory flags", () => {
    const compose = read('docker-compose.yml');
    expect(compose).toContain(
      `command: ${JSON.stringify(['node', ...PROJECTOR_MEMORY_FLAGS, 'dist/projector/main.js']).replaceAll(',', ', ')}`,
    );
  });
});
