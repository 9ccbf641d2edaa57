import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_MEMORY_FLAGS } from './memoryBound.ts';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const command = (script: string): string => JSON.stringify(['node', ...API_MEMORY_FLAGS, script]).replaceAll(',', ', ');

// The flags are written out in a shell script, the Dockerfile and a compose file; this keeps every
// API launch on the measured bound.
describe('API launches', () => {
  it('npm start runs the API with the memory flags', () => {
    const launch = read('scripts/start.sh')
      .split('\n')
      .find((line) => line.includes('api/main.ts'));
    expect(launch).toContain(`node ${API_MEMORY_FLAGS.join(' ')} api/main.ts`);
  });

  it("the image's command and docker-compose's API run with the memory flags", () => {
    expect(read('Dockerfile')).toContain(`CMD ${command('dist/api/main.js')}`);
    expect(read('docker-compose.yml')).toContain(`command: ${command('dist/api/main.js')}`);
  });
});
