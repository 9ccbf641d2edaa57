import MarkdownIt, { type Token } from 'markdown-it';
import { literalMarkdownText } from './literalMarkdownText.ts';

// The API's `description`: plain text derived from the Markdown the organiser wrote, one block
// per paragraph or heading (lists and quotes are flattened into their paragraphs; code, HTML,
// rules and link definitions are dropped; an image gives its alt text).
//
// The text comes from a system we do not control (decisions.md, "Hostile input"). markdown-it
// bounds its own nesting (the CommonMark preset's maxNesting) and keeps its cost linear on the
// inputs that made other parsers quadratic or overflow their stack; what is longer than
// MARKDOWN_BUDGET or nests deeper, and anything the parser throws on, gets the literal strip, which is linear by
// construction.

/** What the parser is given at most: longer or deeper Markdown is stripped literally. */
export const MARKDOWN_BUDGET = {
  /** Characters of the whole text. */
  length: 32_768,
  /** Container markers (`>`, list markers) and indentation levels opening one line. */
  depth: 16,
} as const;

// Past its maxNesting the parser drops the rest of the text without a word, so its own limit
// stays well above the depth the budget lets through.
const parser = new MarkdownIt('commonmark', { maxNesting: 4 * MARKDOWN_BUDGET.depth });

/** Plain text of a Markdown string: blocks separated by a blank line; null for null or blank input. */
export function markdownToPlainText(markdown: string | null): string | null {
  if (markdown === null) return null;
  if (!withinBudget(markdown)) return literalMarkdownText(markdown);
  let tokens: Token[];
  try {
    tokens = parser.parse(markdown, {});
  } catch {
    return literalMarkdownText(markdown);
  }
  const blocks = tokens
    .filter((token) => token.type === 'inline')
    .map((token) =>
      inlineText(token.children ?? [])
        .replace(/[ \t]+\n/g, '\n')
        .trim(),
    )
    .filter((text) => text !== '');
  return blocks.length > 0 ? blocks.join('\n\n') : null;
}

/** The text of a paragraph's or heading's inline tokens (an image's alt text is its children's). */
function inlineText(tokens: readonly Token[]): string {
  let text = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline') text += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += '\n';
    else if (token.type === 'image') text += inlineText(token.children ?? []);
  }
  return text;
}

const CONTAINER = /[ \t]*(?:>|[*+-](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))/my;

/** Within the budget: one pass over the text, its length and the deepest line. */
export function withinBudget(markdown: string): boolean {
  if (markdown.length > MARKDOWN_BUDGET.length) return false;
  for (let start = 0; start < markdown.length;) {
    let end = markdown.indexOf('\n', start);
    if (end === -1) end = markdown.length;
    if (lineDepth(markdown, start, end) > MARKDOWN_BUDGET.depth) return false;
    start = end + 1;
  }
  return true;
}

/** Markers opening the line, plus its indentation in steps of two columns (nested list items). */
function lineDepth(text: string, start: number, end: number): number {
  let indent = 0;
  while (start + indent < end && (text[start + indent] === ' ' || text[start + indent] === '\t')) indent++;
  let depth = Math.floor(indent / 2);
  CONTAINER.lastIndex = start;
  while (CONTAINER.lastIndex < end && CONTAINER.test(text)) depth++;
  return depth;
}
