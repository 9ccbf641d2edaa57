import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { renderBlock, replaceBlock } from './resultsBlock.ts';

export const RESULTS_FILE = 'docs/performance.md';
const LOAD_SAMPLE_MS = 15_000;

/**
 * Where a benchmark script keeps the figures of its last run: `record(part, figures)` replaces
 * that part's block in docs/performance.md (or `--results FILE`; `none` writes nothing) with the
 * figures, the date, the machine, its load and the commit.
 */
export function resultsRecorder(script: string, file: string): (part: string, figures: string) => void {
  const startedAt = new Date();
  const commitAtStart = commit(file);
  // A long run on a shared machine sees other work come and go: its load is sampled throughout.
  const load = [loadavg()[0]!];
  setInterval(() => load.push(loadavg()[0]!), LOAD_SAMPLE_MS).unref();
  const command = `npm run ${script}${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  return (part, figures) => {
    if (file === 'none') return;
    const facts = { command, startedAt, commitAtStart, commitAtEnd: commit(file), machine: machine(), load: [...load, loadavg()[0]!] };
    const name = part ? `${script} (${part})` : script;
    writeFileSync(file, replaceBlock(readFileSync(file, 'utf8'), name, renderBlock(name, facts, figures)));
    process.stderr.write(`› figures of ${name} written to ${file}\n`);
  };
}

function machine(): string {
  const cores = cpus();
  return `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, ${type()} ${release()}`;
}

/** The short commit, and how many files differed from it (other than the results file). */
function commit(resultsFile: string): string {
  const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8' }).trim();
  try {
    const head = git('rev-parse', '--short', 'HEAD');
    const changed = git('status', '--porcelain', '--untracked-files=no')
      .split('\n')
      .filter((line) => line && !line.endsWith(resultsFile)).length;
    return changed === 0 ? head : `${head} (${changed} tracked files changed in the working tree)`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
