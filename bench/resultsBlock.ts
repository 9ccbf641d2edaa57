/**
 * The benchmark scripts keep the figures of their last run in docs/performance.md, one block per
 * script and part between HTML comments, under one section; everything outside the blocks is
 * written by hand and left as it is.
 */
export const RESULTS_SECTION = '## Last run of each benchmark';
const SECTION_INTRO =
  'Written by the benchmark scripts themselves: each part of a script replaces its own block with ' +
  'the figures of its last run (`--results none` leaves this file alone). Edit outside the blocks only.';

export interface RunFacts {
  /** `npm run bench:api -- --parts uncached`, as run. */
  command: string;
  startedAt: Date;
  /** The commit when the run started, and when its figures were written (other work may land meanwhile). */
  commitAtStart: string;
  commitAtEnd: string;
  machine: string;
  /** The 1-minute load average, sampled from the start to the end (at least one sample). */
  load: readonly number[];
}

/** The block of one part of one script: a heading, the run's facts, the figures as printed. */
export function renderBlock(name: string, facts: RunFacts, figures: string): string {
  const date = facts.startedAt.toISOString().slice(0, 16).replace('T', ' ');
  return [
    open(name),
    `### ${name}`,
    '',
    `${date} UTC, ${commits(facts)}; ${facts.machine}; ${loadLine(facts.load)}. Run as \`${facts.command}\`.`,
    '',
    '```text',
    figures.replace(/^\n+|\n+$/g, ''),
    '```',
    close(name),
  ].join('\n');
}

/**
 * `doc` with the block `name` replaced by `block`, or added at the end of the results section
 * (the section is added at the end of the document when missing).
 */
export function replaceBlock(doc: string, name: string, block: string): string {
  const start = doc.indexOf(open(name));
  if (start >= 0) {
    const end = doc.indexOf(close(name), start);
    if (end < 0) throw new Error(`${close(name)} is missing after ${open(name)}`);
    return doc.slice(0, start) + block + doc.slice(end + close(name).length);
  }
  const section = doc.indexOf(`\n${RESULTS_SECTION}\n`);
  if (section < 0) return `${doc.replace(/\n*$/, '')}\n\n${RESULTS_SECTION}\n\n${SECTION_INTRO}\n\n${block}\n`;
  const next = doc.indexOf('\n## ', section + 1);
  const at = next < 0 ? doc.length : next;
  const before = doc.slice(0, at).replace(/\n*$/, '');
  return `${before}\n\n${block}\n${next < 0 ? '' : '\n'}${doc.slice(at).replace(/^\n+/, '')}`;
}

const commits = (facts: RunFacts): string =>
  facts.commitAtStart === facts.commitAtEnd
    ? `commit ${facts.commitAtStart}`
    : `commit ${facts.commitAtStart} at the start, ${facts.commitAtEnd} at the end`;

function loadLine(load: readonly number[]): string {
  const sorted = [...load].sort((a, b) => a - b);
  const at = (q: number): string => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN).toFixed(1);
  return `load average (1 min) ${load[0]?.toFixed(1)} at the start, ${load.at(-1)?.toFixed(1)} at the end, min / median / max ${at(0)} / ${at(0.5)} / ${at(1)}`;
}

const open = (name: string): string => `<!-- results: ${name} -->`;
const close = (name: string): string => `<!-- /results: ${name} -->`;
