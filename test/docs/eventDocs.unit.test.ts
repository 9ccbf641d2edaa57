import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/paths.ts';
import { EVENT_TYPES } from '../../schemas/events/index.ts';
import { BEGIN_MARKER, END_MARKER, renderEventFieldTables, withEventFieldTables } from '../../scripts/eventFieldTables.ts';

const page = readFileSync(join(ROOT, 'docs/events.md'), 'utf8');
const regenerate = 'run `node scripts/renderEventDocs.ts` and commit docs/events.md';

describe('docs/events.md', () => {
  it(`holds the field tables the event schemas render (otherwise ${regenerate})`, () => {
    expect(page).toBe(withEventFieldTables(page, renderEventFieldTables()));
  });

  it('has a field table and an effect for every event type', () => {
    const generated = page.slice(page.indexOf(BEGIN_MARKER), page.indexOf(END_MARKER));
    const effects = page.slice(0, page.indexOf(BEGIN_MARKER));
    for (const type of EVENT_TYPES) {
      expect(generated).toContain(`#### \`${type}\``);
      const [aggregate, name] = type.split('.') as [string, string];
      expect(effects, type).toMatch(new RegExp(`\`(${aggregate}\\.)?${name}\``));
    }
  });

  // The check is only worth having if it fails: a field the page lacks, or a stale one.
  it('fails on a page that drifted from the schemas', () => {
    const stale = page.replace('| `entryId` | string (uuid) | yes |', '| `entryId` | string | yes |');
    expect(stale).not.toBe(page);
    expect(stale).not.toBe(withEventFieldTables(stale, renderEventFieldTables()));
    expect(() => withEventFieldTables(page.replace(END_MARKER, ''), '')).toThrow(/needs the lines/);
  });
});
