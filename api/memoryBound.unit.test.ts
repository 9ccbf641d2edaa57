import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { launchCommand } from '../services/nodeFlags.ts';
import { API_MEMORY_FLAGS, API_MEMORY_FLAGS_FILE } from './memoryBound.ts';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const command = (script: string): string =>
  JSON.stringify(['sh', '-c', launchCommand(API_MEMORY_FLAGS_FILE, script)]).replaceAll('","', '", "');

// The flags are written once, in API_MEMORY_FLAGS_FILE; this keeps every API launch reading it.
describe('API launches', () => {
  it('the flags file holds the heap cap', () => {
    expect(API_MEMORY_FLAGS).toContain('--max-old-space-size=192');
    expect(API_MEMORY_FLAGS.every((flag) => flag.startsWith('--'))).toBe(true);
  });

  it('npm start runs the API with the flags of the file', () => {
    const launch = read('scripts/start.sh')
      .split('\n')
      .find((line) => line.includes('api/main.ts'));
    expect(launch).toContain(`node $(cat ${API_MEMORY_FLAGS_FILE}) api/main.ts`);
  });

  it("the image's command and docker-compose's API run with the flags of the file, which the image holds", () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain(`CMD ${command('dist/api/main.js')}`);
    expect(dockerfile).toMatch(new RegExp(`^COPY .*${API_MEMORY_FLAGS_FILE}.* scripts/$`, 'm'));
    // Compose interpolates `$`: the file writes the shell's `$(` as `$$(`.
    expect(read('docker-compose.yml')).toContain(`command: ${command('dist/api/main.js').replaceAll('$', () => '$$')}`);
  });
});
