import { describe, expect, it } from 'vitest';
import { RESULTS_SECTION, renderBlock, replaceBlock } from './resultsBlock.ts';

const facts = {
  command: 'npm run bench:api -- --parts memory',
  startedAt: new Date('2026-11-26T01:02:03Z'),
  commitAtStart: 'abc1234',
  commitAtEnd: 'abc1234',
  machine: '2 × Some CPU, 23 GB, Linux 6.1',
  load: [1.25, 9, 0.5, 4, 3.5],
};

describe('renderBlock', () => {
  it('heads the figures with the date, commit, machine, load and command', () => {
    const block = renderBlock('bench:api (memory)', facts, '\nrate limiter: 1 MiB\n\n');
    expect(block).toContain('### bench:api (memory)');
    expect(block).toContain(
      '2026-11-26 01:02 UTC, commit abc1234; 2 × Some CPU, 23 GB, Linux 6.1; load average (1 min) 1.3 at the start, 3.5 at the end, min / median / max 0.5 / 3.5 / 9.0',
    );
    expect(block).toContain('`npm run bench:api -- --parts memory`');
    expect(block).toContain('```text\nrate limiter: 1 MiB\n```');
  });

  it('names both commits when another landed during the run', () => {
    expect(renderBlock('a', { ...facts, commitAtEnd: 'def5678' }, 'x')).toContain('commit abc1234 at the start, def5678 at the end;');
  });
});

describe('replaceBlock', () => {
  const doc = `# Perf\n\n${RESULTS_SECTION}\n\nintro\n\n## History\n\nold figures\n`;

  it('adds a new block at the end of the results section, before the next section', () => {
    const once = replaceBlock(doc, 'a', renderBlock('a', facts, 'one'));
    expect(once).toMatch(/intro\n\n<!-- results: a -->\n[\s\S]*```text\none\n```\n<!-- \/results: a -->\n\n## History\n\nold figures\n$/);
    const twice = replaceBlock(once, 'b', renderBlock('b', facts, 'two'));
    expect(twice.indexOf('<!-- results: a -->')).toBeLessThan(twice.indexOf('<!-- results: b -->'));
    expect(twice.indexOf('<!-- /results: b -->')).toBeLessThan(twice.indexOf('## History'));
  });

  it('replaces only its own block, leaving the others and the hand-written text as they were', () => {
    const both = replaceBlock(replaceBlock(doc, 'a', renderBlock('a', facts, 'one')), 'b', renderBlock('b', facts, 'two'));
    const updated = replaceBlock(both, 'a', renderBlock('a', facts, 'three'));
    expect(updated).toContain('```text\nthree\n```');
    expect(updated).not.toContain('```text\none\n```');
    expect(updated).toContain('```text\ntwo\n```');
    expect(updated.replace(/<!-- results: a -->[\s\S]*<!-- \/results: a -->/, '')).toBe(
      both.replace(/<!-- results: a -->[\s\S]*<!-- \/results: a -->/, ''),
    );
  });

  it('adds the section at the end of a document without one', () => {
    const added = replaceBlock('# Perf\n\ntext\n', 'a', renderBlock('a', facts, 'one'));
    expect(added.startsWith(`# Perf\n\ntext\n\n${RESULTS_SECTION}\n\n`)).toBe(true);
    expect(added.endsWith('<!-- /results: a -->\n')).toBe(true);
  });

  it('refuses a block whose end marker is missing rather than cut the document', () => {
    expect(() => replaceBlock('<!-- results: a -->\nhalf', 'a', 'new')).toThrow(/missing/);
  });
});
