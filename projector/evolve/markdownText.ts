import { remark } from 'remark';
import strip from 'strip-markdown';

// The API's `description`: plain text derived from the Markdown the organiser wrote. The
// stripped tree is read directly rather than stringified, so that no Markdown escape (`\*`)
// leaks into the text.

interface TextNode {
  type: string;
  value?: string;
  children?: TextNode[];
}

const processor = remark().use(strip);

const textOf = (node: TextNode): string =>
  typeof node.value === 'string' ? node.value : node.type === 'break' ? '\n' : (node.children ?? []).map(textOf).join('');

/** Plain text of a Markdown string: blocks separated by a blank line; null for null or blank input. */
export function markdownToPlainText(markdown: string | null): string | null {
  if (markdown === null) return null;
  const tree = processor.runSync(processor.parse(markdown)) as TextNode;
  const blocks = (tree.children ?? [])
    .map((block) =>
      textOf(block)
        .replace(/[ \t]+\n/g, '\n')
        .trim(),
    )
    .filter((text) => text !== '');
  return blocks.length > 0 ? blocks.join('\n\n') : null;
}
