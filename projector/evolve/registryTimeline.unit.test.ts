import { describe, expect, it } from 'vitest';
import { covers, deriveRegistryTimeline, intersectIntervals, unionIntervals } from './index.ts';
import type { RegistryException } from './types.ts';

const DAY = 86_400_000;
const t = (day: number): string => new Date(Date.UTC(2024, 0, 1) + day * DAY).toISOString();
const grant = [{ at: t(0), state: 'REGISTRY' as const }];

describe('intervals', () => {
  it('unions overlapping and touching intervals, open ends last', () => {
    expect(
      unionIntervals([
        { from: t(5), to: null },
        { from: t(0), to: t(2) },
        { from: t(2), to: t(3) },
        { from: t(4), to: t(4) },
      ]),
    ).toEqual([
      { from: t(0), to: t(3) },
      { from: t(5), to: null },
    ]);
  });
  it('intersects', () => {
    expect(
      intersectIntervals(
        [
          { from: t(0), to: t(10) },
          { from: t(20), to: null },
        ],
        [{ from: t(5), to: t(25) }],
      ),
    ).toEqual([
      { from: t(5), to: t(10) },
      { from: t(20), to: t(25) },
    ]);
    expect(covers([{ from: t(0), to: t(1) }], t(1))).toBe(false);
    expect(covers([{ from: t(0), to: null }], t(100))).toBe(true);
  });
});

describe('deriveRegistryTimeline', () => {
  const base = { own: grant, exceptions: [] as RegistryException[], bufferPeriodMs: 30 * DAY };

  it('archives at exactly bufferSince + period, before a member arriving at that same instant', () => {
    const timeline = deriveRegistryTimeline({ ...base, members: [{ from: t(30), to: null }], now: t(31) });
    expect(timeline).toMatchObject({ registryState: 'ARCHIVE', archivedAt: t(30), ownArchived: true });
    expect(timeline.listed).toEqual([]);
  });

  it('reports listed intervals and buffer entry from the facts, and the next due instant', () => {
    const timeline = deriveRegistryTimeline({
      ...base,
      members: [
        { from: t(1), to: t(10) },
        { from: t(12), to: t(20) },
      ],
      now: t(25),
    });
    expect(timeline).toMatchObject({ registryState: 'BUFFER', bufferSince: t(20), nextDueAt: t(50), archivedAt: null });
    expect(timeline.listed).toEqual([
      { from: t(1), to: t(10) },
      { from: t(12), to: t(20) },
    ]);
  });

  it('is null before the record exists, and lists records that need no members', () => {
    expect(deriveRegistryTimeline({ ...base, own: [], members: null, now: t(1) }).registryState).toBeNull();
    expect(deriveRegistryTimeline({ ...base, members: null, now: t(100) })).toMatchObject({
      registryState: 'REGISTRY',
      listed: [{ from: t(0), to: null }],
      nextDueAt: null,
    });
  });

  it('defers the buffer archival past a REGISTRY exception, then archives at its end', () => {
    const exceptions: RegistryException[] = [{ state: 'REGISTRY', from: t(20), until: t(40), endedAt: null }];
    expect(deriveRegistryTimeline({ ...base, exceptions, members: [], now: t(35) })).toMatchObject({
      registryState: 'REGISTRY',
      nextDueAt: t(40),
      archivedAt: null,
    });
    expect(deriveRegistryTimeline({ ...base, exceptions, members: [], now: t(40) })).toMatchObject({
      registryState: 'ARCHIVE',
      archivedAt: t(40),
    });
    const lifted: RegistryException[] = [{ state: 'REGISTRY', from: t(20), until: t(40), endedAt: t(33) }];
    expect(deriveRegistryTimeline({ ...base, exceptions: lifted, members: [], now: t(34) })).toMatchObject({
      registryState: 'ARCHIVE',
      archivedAt: t(33),
    });
  });

  it('reports ARCHIVE under an ARCHIVE exception with the own archivedAt when the record is archived anyway', () => {
    const own = [...grant, { at: t(5), state: 'ARCHIVE' as const }];
    const exceptions: RegistryException[] = [{ state: 'ARCHIVE', from: t(10), until: t(20), endedAt: null }];
    expect(deriveRegistryTimeline({ ...base, own, exceptions, members: null, now: t(15) })).toMatchObject({
      registryState: 'ARCHIVE',
      archivedAt: t(5),
    });
  });
});
