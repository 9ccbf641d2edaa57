/**
 * What a benchmark's seeded read model was made from, kept in its own database beside the read
 * model (collection `bench_seed`), so that a later run reuses the topic, or the whole model, only
 * when they hold what this checkout would make: the same generated history (seed, size, "now",
 * generator source) in the read-model format this code writes. The format, not a hash of the
 * projector's source, decides, as it decides for a deployed model: a refactor does not cost a
 * new seed, and a change of the documents bumps the format (or the bench is run with --reseed).
 */
export interface SeedStamp {
  topic: string;
  /** Fingerprint of the history: its options and the generator's source. */
  history: string;
  /** Events the topic held when the publish finished; 0 while it has not. */
  published: number;
  /** The generation the rebuild switched to; null until a rebuild finished. */
  generation: number | null;
}

/** What the meta of the read model says of the last rebuild into it (services/mongo's RebuildProgress). */
export interface RebuildRecord {
  events: number;
  finishedAt: Date | null;
}

export type Verdict = { reuse: true } | { reuse: false; why: string };

/** The topic holds the whole history this checkout would publish. */
export function topicVerdict(stamp: SeedStamp | null, expected: Pick<SeedStamp, 'topic' | 'history'>, topicMessages: number): Verdict {
  if (topicMessages === 0) return { reuse: false, why: `${expected.topic} holds no events` };
  if (!stamp || stamp.topic !== expected.topic) return { reuse: false, why: `nothing records ${expected.topic} as fully published` };
  if (stamp.history !== expected.history) return { reuse: false, why: `${expected.topic} holds another history (the generator changed)` };
  if (stamp.published === 0) return { reuse: false, why: `the publish to ${expected.topic} did not finish` };
  if (stamp.published !== topicMessages)
    return { reuse: false, why: `${expected.topic} holds ${topicMessages} events where the publish wrote ${stamp.published}` };
  return { reuse: true };
}

/**
 * The database's live generation is a finished rebuild of this history in the format this code writes.
 * A rebuild stopped half-way leaves the previous generation live and its record unfinished.
 */
export function modelVerdict(
  stamp: SeedStamp | null,
  expected: { history: string; format: number },
  live: { generation: number; format: number },
  rebuild: RebuildRecord | null,
): Verdict {
  if (!stamp || stamp.generation === null) return { reuse: false, why: 'no finished seed is recorded' };
  if (stamp.history !== expected.history) return { reuse: false, why: 'it holds another history (the generator changed)' };
  if (live.format !== expected.format)
    return { reuse: false, why: `its live generation is of read-model format ${live.format}, this code writes format ${expected.format}` };
  if (stamp.generation !== live.generation)
    return { reuse: false, why: `generation ${live.generation} is live, the seed made generation ${stamp.generation}` };
  if (!rebuild?.finishedAt) return { reuse: false, why: 'the last rebuild into it did not finish' };
  if (rebuild.events !== stamp.published)
    return { reuse: false, why: `the last rebuild replayed ${rebuild.events} events of the ${stamp.published} published` };
  return { reuse: true };
}
