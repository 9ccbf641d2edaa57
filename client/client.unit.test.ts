import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, renderSchema } from './renderSchema.ts';

function firstDifferentLine(a: string, b: string): number {
  const [left, right] = [a.split('\n'), b.split('\n')];
  const index = left.findIndex((line, i) => line !== right[i]);
  return (index === -1 ? left.length : index) + 1;
}

describe('client/schema.ts', () => {
  it('is what the current OpenAPI document generates', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    const current = await renderSchema();
    // One assertion with a message, rather than a 150 kB diff: the fix is always the same command.
    expect(
      committed === current,
      `client/schema.ts is out of date with the OpenAPI document (first difference on line ${firstDifferentLine(committed, current)}): run \`npm run client:generate\` and commit client/schema.ts`,
    ).toBe(true);
  });
});
