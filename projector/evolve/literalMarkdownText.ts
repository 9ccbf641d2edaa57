// The fallback of markdownToPlainText for Markdown it will not hand to the parser: a strip of the
// syntax in one pass over the text, so its cost is linear in the input whatever the input holds.
// It keeps the words and drops the markup; it does not try to match the parser's output.

/** Line prefixes that open a container (block quotes, list items, headings), with their spaces. */
const CONTAINER_MARKER = /\s*(?:>|[*+-](?=\s|$)|\d{1,9}[.)](?=\s|$)|#{1,6}(?=\s|$))/y;
/** Lines that are only a fence, a thematic break, a setext underline or a table's rule. */
const FENCE = /^(?:`{3,}|~{3,})/;
const RULE_CHARS = /^[-*_=\s]{3,}$/;
const TABLE_RULE_CHARS = /^[\s:|-]+$/;
/** An HTML tag of bounded length: the bound keeps the scan linear on a text of `<`s. */
const HTML_TAG = /<\/?[A-Za-z][^<>\n]{0,200}>/g;
/**
 * In one pass, so that an escaped character stays: a backslash escape (its character kept), runs
 * of emphasis and code marks, underscores that are not inside a word (snake_case stays as
 * written), and link and image brackets.
 */
const INLINE_SYNTAX = /\\([!-/:-@[-`{-~])|[*~`]+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])|!?\[|\]/gu;

/** Plain text of Markdown by a literal strip of its syntax; null when nothing is left. */
export function literalMarkdownText(markdown: string): string | null {
  const blocks: string[] = [];
  let block: string[] = [];
  const endBlock = (): void => {
    if (block.length > 0) blocks.push(block.join('\n'));
    block = [];
  };
  // Inline syntax never spans a line break here (each pattern stops at one), so it is stripped
  // from the whole text at once.
  for (const raw of stripInline(markdown).split(/\r\n?|\n/)) {
    const line = stripContainers(raw);
    if (line === '') endBlock();
    else block.push(line);
  }
  endBlock();
  return blocks.length > 0 ? blocks.join('\n\n') : null;
}

/** The line without its container markers, or '' for a line that is syntax only. */
function stripContainers(line: string): string {
  // A sticky pattern walks the markers in place: slicing per marker would copy a line of
  // nested markers once per marker.
  let at = 0;
  CONTAINER_MARKER.lastIndex = 0;
  while (CONTAINER_MARKER.test(line)) at = CONTAINER_MARKER.lastIndex;
  const rest = line.slice(at).trim();
  const syntaxOnly = FENCE.test(rest) || RULE_CHARS.test(rest) || (rest.includes('-') && TABLE_RULE_CHARS.test(rest));
  return syntaxOnly ? '' : rest;
}

function stripInline(text: string): string {
  return dropLinkTargets(text)
    .replace(HTML_TAG, '')
    .replace(INLINE_SYNTAX, (_, escaped: string | undefined) => escaped ?? '');
}

/**
 * `[text](target)` → `[text]`: drops each `(target)` that follows a `]` and holds no whitespace.
 * The next `)` and the next whitespace are found once and reused until passed, so a line of a
 * million `](` costs one scan, not one per `](`.
 */
function dropLinkTargets(line: string): string {
  let out = '';
  let from = 0;
  let close = -1;
  let space = -1;
  for (let at = line.indexOf('](', from); at !== -1; at = line.indexOf('](', from)) {
    if (close <= at) close = indexOr(line, ')', at + 2);
    if (space <= at) space = indexOfWhitespace(line, at + 2);
    out += line.slice(from, at + 1);
    if (close < space) {
      from = close + 1;
    } else {
      out += '(';
      from = at + 2;
    }
  }
  return out + line.slice(from);
}

const indexOr = (text: string, search: string, from: number): number => {
  const i = text.indexOf(search, from);
  return i === -1 ? text.length : i;
};

function indexOfWhitespace(text: string, from: number): number {
  const pattern = /\s/g;
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? text.length;
}
