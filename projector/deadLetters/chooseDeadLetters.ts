import { sourceLabel, type DeadLetterEntry, type DeadLetterGroup, type SourcePosition } from './deadLetterEntry.ts';

export interface Choice {
  /** The latest copy of each chosen dead letter that can be republished. */
  chosen: DeadLetterEntry[];
  /** Positions asked for that no dead letter of the events topic came from. */
  unknown: SourcePosition[];
  /** Chosen dead letters that do not carry the event (too large, sent as coordinates): the original stays in the events topic. */
  withoutValue: DeadLetterEntry[];
}

/** The dead letters of `topic` to republish: those at the given source positions, or all. */
export function chooseDeadLetters(groups: readonly DeadLetterGroup[], topic: string, wanted: readonly SourcePosition[] | 'all'): Choice {
  const fromTopic = groups.map((g) => g.latest).filter((entry) => entry.source.topic === topic);
  const bySource = new Map(fromTopic.map((entry) => [sourceLabel(entry.source), entry]));
  const asked = wanted === 'all' ? [] : [...new Map(wanted.map((position) => [sourceLabel(position), position])).values()];
  const picked = wanted === 'all' ? fromTopic : asked.flatMap((position) => bySource.get(sourceLabel(position)) ?? []);
  const unknown = asked.filter((position) => !bySource.has(sourceLabel(position)));
  return {
    chosen: picked.filter((entry) => entry.carriesEvent),
    unknown,
    withoutValue: picked.filter((entry) => !entry.carriesEvent),
  };
}

/** Whether a dead letter is one `wanted` names (read with its value kept, for a republish). */
export function isWanted(entry: DeadLetterEntry, topic: string, wanted: readonly SourcePosition[] | 'all'): boolean {
  if (entry.source.topic !== topic) return false;
  return wanted === 'all' || wanted.some((position) => sourceLabel(position) === sourceLabel(entry.source));
}
