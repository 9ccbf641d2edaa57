import { describe, expect, it } from 'vitest';
import { rebuildPaceLine } from './rebuildPace.ts';

const startedAt = new Date('2026-11-28T08:00:00Z');
const at = (seconds: number): Date => new Date(startedAt.getTime() + seconds * 1000);

describe('rebuildPaceLine', () => {
  it('gives the replay’s rate and the time it still needs', () => {
    expect(rebuildPaceLine({ ratio: 0.25, events: 250_000, startedAt, updatedAt: at(50), finishedAt: null })).toEqual([
      '  replaying the events topic at 5,000 events/s, about 150 s of replay left, then the documents and the indexes',
    ]);
  });

  it('says what follows the replay, and nothing once the rebuild finished', () => {
    expect(rebuildPaceLine({ ratio: 1, events: 1_000, startedAt, updatedAt: at(9), finishedAt: null })[0]).toMatch(
      /every event replayed; deriving/,
    );
    expect(rebuildPaceLine({ ratio: 0, events: 0, startedAt, updatedAt: startedAt, finishedAt: null })[0]).toMatch(/not known yet/);
    expect(rebuildPaceLine({ ratio: 1, events: 1_000, startedAt, updatedAt: at(9), finishedAt: at(9) })).toEqual([]);
  });
});
