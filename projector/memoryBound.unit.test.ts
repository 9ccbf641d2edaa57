import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { launchCommand } from '../services/nodeFlags.ts';
import { PROJECTOR_MEMORY_FLAGS, PROJECTOR_MEMORY_FLAGS_FILE } from './memoryBound.ts';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

// The flags are written once, in PROJECTOR_MEMORY_FLAGS_FILE; this keeps every projector launch reading it.
describe('projector launches', () => {
  const flags = `$(cat ${PROJECTOR_MEMORY_FLAGS_FILE})`;

  it('the flags file holds the heap cap', () => {
    expect(PROJECTOR_MEMORY_FLAGS).toContain('--max-old-space-size=320');
  });

  it('npm start runs the projector with the flags of the file', () => {
    const launch = read('scripts/start.sh')
      .split('\n')
      .find((line) => line.includes('projector/main.ts'));
    expect(launch).toContain(`node ${flags} projector/main.ts`);
  });

  it('npm run rebuild runs with the flags of the file', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.rebuild).toContain(`node ${flags} projector/rebuild.ts`);
  });

  it("docker-compose's projector runs with the flags of the file, which the image holds", () => {
    const command = JSON.stringify(['sh', '-c', launchCommand(PROJECTOR_MEMORY_FLAGS_FILE, 'dist/projector/main.js')]).replaceAll(
      '","',
      '", "',
    );
    // Compose interpolates `$`: the file writes the shell's `$(` as `$$(`.
    expect(read('docker-compose.yml')).toContain(`command: ${command.replaceAll('$', () => '$$')}`);
    expect(read('Dockerfile')).toMatch(new RegExp(`^COPY .*${PROJECTOR_MEMORY_FLAGS_FILE}.* scripts/$`, 'm'));
  });
});
