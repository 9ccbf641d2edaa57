import type { RebuildProgress } from '../../services/mongo/index.ts';

/**
 * What `npm run status` adds under a running rebuild's line: how fast its replay goes and how
 * long it still has, from what the rebuild last recorded; or, once every event is replayed, what
 * it does until the switch. Nothing for a finished rebuild.
 */
export function rebuildPaceLine(rebuild: RebuildProgress): string[] {
  if (rebuild.finishedAt) return [];
  if (rebuild.ratio >= 1)
    return ['  every event replayed; deriving the documents and building the indexes, then the clock, the tallies and the switch'];
  const seconds = (rebuild.updatedAt.getTime() - rebuild.startedAt.getTime()) / 1000;
  if (rebuild.ratio <= 0 || rebuild.events <= 0 || seconds <= 0) return ['  replaying the events topic; its pace is not known yet'];
  const rate = rebuild.events / seconds;
  const left = (rebuild.events / rebuild.ratio - rebuild.events) / rate;
  const n = (x: number): string => Math.round(x).toLocaleString('en');
  return [`  replaying the events topic at ${n(rate)} events/s, about ${n(left)} s of replay left, then the documents and the indexes`];
}
