import { describe, expect, it } from 'vitest';
import { currentInstant, keepSnapshots, type EndsSnapshot } from './currentInstant.ts';

const snap = (at: number, ends: Record<number, number>): EndsSnapshot => ({
  at,
  ends: new Map(Object.entries(ends).map(([p, e]) => [Number(p), e])),
});
const pos = (positions: Record<number, number>): Map<number, number> => new Map(Object.entries(positions).map(([p, e]) => [Number(p), e]));

describe('currentInstant', () => {
  it('is the latest snapshot every partition has reached', () => {
    const snapshots = [snap(1000, { 0: 10, 1: 5 }), snap(2000, { 0: 20, 1: 5 }), snap(3000, { 0: 30, 1: 9 })];
    expect(currentInstant(snapshots, pos({ 0: 30, 1: 9 }))).toBe(3000);
    // Partition 0 has applied everything up to the 2000 snapshot, partition 1 everything so far.
    expect(currentInstant(snapshots, pos({ 0: 25, 1: 9 }))).toBe(2000);
    // Partition 1 trails: it is current only as of the 2000 snapshot (its end was 5 until then).
    expect(currentInstant(snapshots, pos({ 0: 30, 1: 7 }))).toBe(2000);
  });

  it('is unknown while some partition has reached no snapshot in the window', () => {
    expect(currentInstant([snap(1000, { 0: 10 }), snap(2000, { 0: 12 })], pos({ 0: 3 }))).toBeNull();
    expect(currentInstant([], pos({}))).toBeNull();
  });

  it('treats a partition absent from a snapshot as empty then, and an empty topic as current', () => {
    expect(currentInstant([snap(1000, { 0: 4 }), snap(2000, { 0: 4, 1: 3 })], pos({ 0: 4 }))).toBe(1000);
    expect(currentInstant([snap(1000, {}), snap(2000, {})], pos({}))).toBe(2000);
  });

  it('keeps a bounded window of snapshots', () => {
    let window: EndsSnapshot[] = [];
    for (let i = 0; i < 10; i += 1) window = keepSnapshots(window, snap(i, { 0: i }), 3);
    expect(window.map((s) => s.at)).toEqual([7, 8, 9]);
  });
});
