import fc from 'fast-check';

// Text nobody meant to send, by kind (issue 24): deep and wide Markdown of each construct, huge
// texts in several scripts, control characters, lone surrogates, NUL, bidi marks. Shared by the
// adversarial suite and the soak benchmark.

/** A pseudo-random run of one script's characters (a seeded walk, so the suite is repeatable). */
export function scriptText(length: number, first: number, span: number, seed = 1): string {
  let x = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    text += String.fromCodePoint(first + (x % span));
  }
  return text;
}

/** Deep and wide Markdown of each construct, each a few KB to tens of KB. */
export const hostileMarkdown: Readonly<Record<string, string>> = {
  nestedQuotes: '>'.repeat(20_000),
  spacedQuotes: '> '.repeat(20_000),
  nestedBullets: '* '.repeat(20_000),
  nestedOrdered: '1. '.repeat(10_000),
  indentedLists: Array.from({ length: 400 }, (_, i) => `${' '.repeat(i * 2)}- item ${i}`).join('\n'),
  emphasisOpeners: '*a'.repeat(20_000),
  underscoreOpeners: '_a'.repeat(20_000),
  linkOpeners: '[a]('.repeat(10_000),
  nestedBrackets: '['.repeat(30_000),
  imageOpeners: '![['.repeat(10_000),
  codeTicks: '`a``'.repeat(10_000),
  htmlOpeners: '<a '.repeat(10_000),
  htmlComments: '<!--'.repeat(10_000),
  entities: '&amp;&#x1F600;'.repeat(3_000),
  quotedUnderlines: '>=\n'.repeat(10_000),
  setextHeadings: 'a\n=\n'.repeat(10_000),
  referenceDefinitions: '[a]: b\n'.repeat(5_000) + '[a]'.repeat(5_000),
  tableRows: '|a|b|\n|-|-|\n' + '|x|y|\n'.repeat(6_000),
  listInQuote: '- > '.repeat(10_000),
  wideParagraph: 'lorem **ipsum** _dolor_ [sit](https://x.example) amet '.repeat(2_000),
};

/** Huge texts in several scripts (about 240 KB of UTF-8 each), past every budget of the derived text. */
export const hugeTexts: Readonly<Record<string, string>> = {
  cjk: scriptText(80_000, 0x4e00, 20_000),
  cyrillic: scriptText(120_000, 0x0410, 64, 2),
  latinDiacritics: scriptText(120_000, 0x00c0, 0x17f - 0xc0, 3),
  emoji: scriptText(60_000, 0x1f600, 80, 4),
  arabicBidi: scriptText(120_000, 0x0600, 0xff, 5) + '\u202e\u2066',
};

/** Short hostile text: control characters, lone surrogates, NUL, bidi marks, odd whitespace. */
export const oddTexts: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  'x\ud83d',
  '\u202e\u2066\u2069\u200f',
  '\u200b\u200d\ufeff',
  '\u0001\u0007\u001b[31m\u007f',
  '\r\n\r\n\t\v\f',
  '\u2028\u2029',
  'İıŞşẞß',
  '$where',
  'a.b.c',
  '{"$gt": ""}',
  '\\u0000',
  '%00%2e%2e/',
];

/** Every kind above, for a free text slot of an event or a request (huge ones only where `huge`). */
export function hostileString(opts: { huge: boolean }): fc.Arbitrary<string> {
  const kinds = [
    { arbitrary: fc.string({ maxLength: 40 }), weight: 10 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 10 },
    { arbitrary: fc.constantFrom(...oddTexts), weight: 10 },
    { arbitrary: fc.constantFrom(...Object.values(hostileMarkdown)), weight: 4 },
  ];
  // Rare, so that most events of many text slots still fit under the broker's message limit.
  if (opts.huge) kinds.push({ arbitrary: fc.constantFrom(...Object.values(hugeTexts)), weight: 1 });
  return fc.oneof(...kinds);
}
