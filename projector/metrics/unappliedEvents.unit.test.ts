import { describe, expect, it } from 'vitest';
import { UnappliedEvents } from './unappliedEvents.ts';

describe('UnappliedEvents: the lag in seconds an operator alerts on', () => {
  it('is 0 when nothing was fetched and once every partition is caught up, however old the last event', () => {
    const unapplied = new UnappliedEvents();
    expect(unapplied.ageSeconds(10_000_000)).toBe(0);
    unapplied.pendingSince(0, 1_000);
    unapplied.caughtUp(0);
    expect(unapplied.ageSeconds(10_000_000)).toBe(0);
  });

  it('grows with the clock while a message stays unapplied (a stalled chunk), from its append time', () => {
    const unapplied = new UnappliedEvents();
    unapplied.pendingSince(3, 50_000);
    expect(unapplied.ageSeconds(52_000)).toBe(2);
    expect(unapplied.ageSeconds(110_000)).toBe(60);
  });

  it('is the oldest over the partitions, and forgets partitions handed to another instance', () => {
    const unapplied = new UnappliedEvents();
    unapplied.pendingSince(0, 40_000);
    unapplied.pendingSince(1, 10_000);
    expect(unapplied.ageSeconds(70_000)).toBe(60);
    unapplied.keepOnly(new Set([0]));
    expect(unapplied.ageSeconds(70_000)).toBe(30);
  });
});
