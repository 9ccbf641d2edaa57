import { readFileSync } from 'node:fs';

/**
 * The Node flags of a process's launches, read from the one file that holds them (one line,
 * space-separated), the file every launcher reads: `scripts/start.sh` and the npm scripts with
 * `$(cat <file>)`, the image and docker-compose.yml through `sh -c 'exec node $(cat <file>) …'`,
 * tests and benchmarks through this function. `file` is relative to the repository root.
 */
export function readNodeFlags(file: string): readonly string[] {
  const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
  return Object.freeze(text.trim().split(/\s+/));
}

/** The shell command that launches `entry` with the flags in `file` (as the image and compose write it). */
export function launchCommand(file: string, entry: string): string {
  return `exec node $(cat ${file}) ${entry}`;
}
