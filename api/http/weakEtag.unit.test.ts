import { describe, expect, it } from 'vitest';
import { ifNoneMatchMatches, weakEtag } from './weakEtag.ts';

describe('weakEtag', () => {
  it('is a weak validator of the body bytes', () => {
    const tag = weakEtag(Buffer.from('{"data":[]}'));
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
    expect(weakEtag(Buffer.from('{"data":[]}'))).toBe(tag);
    expect(weakEtag(Buffer.from('{"data":[1]}'))).not.toBe(tag);
  });
});

describe('ifNoneMatchMatches', () => {
  const tag = 'W/"abc"';

  it.each([
    ['W/"abc"', true],
    ['"abc"', true],
    ['*', true],
    [' * ', true],
    ['"x", W/"abc"', true],
    ['"x",W/"y"', false],
    ['W/"abcd"', false],
    ['abc', false],
    ['', false],
  ])('%j → %s', (header, expected) => {
    expect(ifNoneMatchMatches(header, tag)).toBe(expected);
  });

  it('does not match without a header', () => {
    expect(ifNoneMatchMatches(undefined, tag)).toBe(false);
  });
});
