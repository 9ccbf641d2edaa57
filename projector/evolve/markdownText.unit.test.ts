import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { literalMarkdownText } from './literalMarkdownText.ts';
import { MARKDOWN_BUDGET, markdownToPlainText, withinBudget } from './markdownText.ts';

// Shapes that overflowed the stack of the parser used before, or took it time quadratic in their
// size (issue 24), and one the fuzzer found (a block quote of setext underlines).
const hostile: Record<string, string> = {
  'nested block quotes': '>'.repeat(20_000),
  'spaced block quotes': '> '.repeat(20_000),
  'nested ordered lists': '1. '.repeat(10_000),
  'nested bullet lists': '* '.repeat(20_000),
  'emphasis openers': '*a'.repeat(20_000),
  'link openers': '[a]('.repeat(10_000),
  entities: '&amp;'.repeat(10_000),
  'quoted underlines': '>=\n'.repeat(10_000),
};

describe('markdownToPlainText', () => {
  it('keeps the parser for ordinary Markdown', () => {
    expect(markdownToPlainText('# Welcome\n\nA *great* [event](https://x.example).')).toBe('Welcome\n\nA great event.');
  });

  it.each(Object.entries(hostile))('derives text from %s without throwing', (_, markdown) => {
    expect(() => markdownToPlainText(markdown)).not.toThrow();
  });

  it('keeps the words of hostile Markdown and drops its syntax', () => {
    expect(markdownToPlainText(`${'> '.repeat(5_000)}deep **words** [here](https://x.example/a)`)).toBe('deep words here');
    expect(markdownToPlainText(`${'1. '.repeat(40)}item\n\n${'*a'.repeat(600)}`)).toBe(`item\n\n${'a'.repeat(600)}`);
  });

  it('parses up to the budget and strips literally past it', () => {
    // The parser drops a fenced code block; the literal strip keeps its lines.
    const fenced = (length: number): string => {
      const fence = '```\ncode\n```\n\n';
      return fence + 'x'.repeat(length - fence.length);
    };
    const head = '```\ncode\n```\n\n'.length;
    expect(markdownToPlainText(fenced(MARKDOWN_BUDGET.length))).toBe('x'.repeat(MARKDOWN_BUDGET.length - head));
    expect(markdownToPlainText(fenced(MARKDOWN_BUDGET.length + 1))).toBe(`code\n\n${'x'.repeat(MARKDOWN_BUDGET.length + 1 - head)}`);
    expect(withinBudget(`${'> '.repeat(MARKDOWN_BUDGET.depth)}x`)).toBe(true);
    expect(withinBudget(`${'> '.repeat(MARKDOWN_BUDGET.depth + 1)}x`)).toBe(false);
    expect(withinBudget(`${' '.repeat(2 * MARKDOWN_BUDGET.depth)}- x`)).toBe(false);
  });

  it('never throws and gives text or null, whatever the input', { timeout: 60_000 }, () => {
    const markdownish = fc.string({
      unit: fc.constantFrom(
        '>',
        ' ',
        '*',
        '-',
        '1.',
        '[',
        ']',
        '(',
        ')',
        '`',
        '_',
        '<',
        '&',
        '|',
        '#',
        '\n',
        'a',
        'é',
        '\u0000',
        '\ud800',
        '\u202e',
      ),
      maxLength: 3_000,
    });
    fc.assert(
      fc.property(fc.oneof(markdownish, fc.string({ unit: 'binary', maxLength: 500 }), fc.string({ maxLength: 500 })), (markdown) => {
        const text = markdownToPlainText(markdown);
        expect(text === null || typeof text === 'string').toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});

describe('literalMarkdownText', () => {
  it('drops container markers, fences, rules, tags, emphasis and link targets', () => {
    const markdown =
      '## Title\n\n> quoted *text*\n- item `one`\n2. item <b>two</b>\n\n```\ncode\n```\n\n---\n[link](https://x.example) and snake_case \\*';
    expect(literalMarkdownText(markdown)).toBe('Title\n\nquoted text\nitem one\nitem two\n\ncode\n\nlink and snake_case *');
  });

  it('gives null for syntax alone', () => {
    expect(literalMarkdownText('> \n---\n***')).toBeNull();
  });
});
