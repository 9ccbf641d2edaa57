import { describe, expect, it } from 'vitest';
import { describePath, describeSchemaErrors } from './describeSchemaErrors.ts';

describe('describePath', () => {
  it('writes a JSON pointer as a property path', () => {
    expect(describePath('')).toBe('');
    expect(describePath('/data/dates/start')).toBe('data.dates.start');
    expect(describePath('/a~1b/c~0d')).toBe('a/b.c~d');
  });

  it('brackets array indexes only, when it can see the value', () => {
    const root = { data: { categoryIds: ['x'], banner: { horizontal: { '640': 5 } } } };
    expect(describePath('/data/categoryIds/0', root)).toBe('data.categoryIds[0]');
    expect(describePath('/data/banner/horizontal/640', root)).toBe('data.banner.horizontal.640');
  });
});

describe('describeSchemaErrors', () => {
  it('says something even with no errors to describe', () => {
    expect(describeSchemaErrors(null)).toBe('does not match its schema');
  });
});
