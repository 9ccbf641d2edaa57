import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A hash of `options` and of the TypeScript source under `dirs` (tests left out): it changes when
 * what that code produces may change, so a seeded model made by other code is never reused.
 */
export function sourceFingerprint(root: string, dirs: readonly string[], options: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(options));
  for (const dir of dirs) {
    const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .sort();
    for (const file of files) hash.update(`\0${dir}/${file}\0`).update(readFileSync(join(root, dir, file)));
  }
  return hash.digest('hex').slice(0, 16);
}
