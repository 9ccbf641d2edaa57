import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The links of the repository's Markdown pages, checked against the files of the repository:
// whoever clones it gets every page a link names, and every heading an anchor names.

export interface Link {
  /** The page the link is in, relative to the root (`docs/operating.md`). */
  page: string;
  target: string;
}

/** Fenced code blocks and inline code spans blanked out: a link shown as code is no link. */
const withoutCode = (text: string): string => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** Every Markdown link `[text](target)` and every `href="…"` of a page, in order. */
export function linksOf(page: string, text: string): Link[] {
  const prose = withoutCode(text);
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/\bhref="([^"]+)"/g)].map((m) => m[1]!),
  ];
  return targets.map((target) => ({ page, target }));
}

/** GitHub's anchors of a Markdown page: one per heading (repeats numbered), and every `<a id>`. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

const withoutFences = (text: string): string => text.replace(/^```[\s\S]*?^```/gm, '');

/** One sentence per link that leads nowhere in the repository at `root`. */
export function brokenLinks(root: string, links: readonly Link[], read = (file: string) => readFileSync(file, 'utf8')): string[] {
  const problems: string[] = [];
  for (const { page, target } of links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:, webcal:: not a file
    const [path = '', anchor] = target.split('#') as [string, string | undefined];
    const file = path === '' ? join(root, page) : resolve(root, dirname(page), decodeURIComponent(path));
    const inRepo = relative(root, file);
    if (path.startsWith('/') || inRepo.startsWith('..')) {
      problems.push(`${page}: ${target} points outside the repository`);
      continue;
    }
    if (!existsSync(file)) {
      problems.push(`${page}: ${target}: ${inRepo} does not exist`);
      continue;
    }
    if (anchor && statSync(file).isFile() && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor))
      problems.push(`${page}: ${target}: ${inRepo} has no heading or anchor #${anchor}`);
  }
  return problems;
}

/**
 * Relative paths a page names outside its links, in prose or code (`../shared/spec/events.md`),
 * that lead nowhere in the repository: neither from the page's folder nor from the root.
 */
export function outsideMentions(root: string, page: string, text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])(?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*/g)]
    .map((m) => m[0].replace(/\.$/, ''))
    .filter((path) => ![resolve(root, dirname(page), path), resolve(root, path)].some((file) => inRepo(root, file) && existsSync(file)))
    .map((path) => `${page}: mentions ${path}, which is not in the repository`);
}

const inRepo = (root: string, file: string): boolean => !relative(root, file).startsWith('..');
