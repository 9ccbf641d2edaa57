import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/paths.ts';
import { anchorsOf, brokenLinks, linksOf, outsideMentions } from './docLinks.ts';

/** The pages a reader of the repository opens: the README, docs/, and the READMEs of its folders. */
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'client/README.md',
  'operators/README.md',
];
const text = (page: string): string => readFileSync(join(ROOT, page), 'utf8');

describe('the links of README.md and docs/', () => {
  it('each lead to a file of the repository, and to a heading of it when they name one', () => {
    expect(
      brokenLinks(
        ROOT,
        pages.flatMap((page) => linksOf(page, text(page))),
      ),
    ).toEqual([]);
  });

  it('never name a path outside the repository, even as code', () => {
    expect(pages.flatMap((page) => outsideMentions(ROOT, page, text(page)))).toEqual([]);
  });

  // The checks are only worth having if they fail: each mistake below is one they must name.
  it('name a link outside the repository, a missing file and a missing heading', () => {
    const page = [
      'See [the contract](../../shared/spec/events.md), [gone](gone.md), [ops](operating.md#no-such-heading),',
      '[fine](operating.md#dead-letters), [web](https://example.org/x) and `[code](nowhere.md)`.',
    ].join('\n');
    expect(brokenLinks(ROOT, linksOf('docs/example.md', page))).toEqual([
      'docs/example.md: ../../shared/spec/events.md points outside the repository',
      'docs/example.md: gone.md: docs/gone.md does not exist',
      'docs/example.md: operating.md#no-such-heading: docs/operating.md has no heading or anchor #no-such-heading',
    ]);
    expect(outsideMentions(ROOT, 'README.md', 'contract in `../shared/spec/events.md`')).toEqual([
      'README.md: mentions ../shared/spec/events.md, which is not in the repository',
    ]);
    expect(outsideMentions(ROOT, 'docs/calling.md', 'text `../shared/spec/api-v1.md` and [client](../client/README.md).')).toEqual([
      'docs/calling.md: mentions ../shared/spec/api-v1.md, which is not in the repository',
    ]);
  });

  it('anchor headings as GitHub does', () => {
    expect([...anchorsOf('# Fail-over and session timeout\n## `status` output\n## Status\n## Status\n<a id="x-y"></a>')]).toEqual([
      'fail-over-and-session-timeout',
      'status-output',
      'status',
      'status-1',
      'x-y',
    ]);
  });
});
