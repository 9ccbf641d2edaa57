/**
 * What a benchmark's seeded read model was made from, kept in its own database beside the read
 * model (collection `bench_seed`), so that a later run reuses the topic, or the whole model, only
 * when they hold what this checkout would make: the same generated history (seed, size, "now",
 * generator source) and the same projection (the source that shapes the stored documents).
 */
export interface SeedStamp {
  topic: string;
  /** Fingerprint of the history: its options and the generator's source. */
  history: string;
  /** Fingerprint of the read model's code: what turns the history into documents. */
  model: string;
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
 * The database's live generation is a finished rebuild of this history by this read-model code.
 * A rebuild stopped half-way leaves the previous generation live and its record unfinished.
 */
export function modelVerdict(
  stamp: SeedStamp | null,
  expected: Pick<SeedStamp, 'history' | 'model'>,
  liveGeneration: number,
  rebuild: RebuildRecord | null,
): Verdict {
  if (!stamp || stamp.generation === null) return { reuse: false, why: 'no finished seed is recorded' };
  if (stamp.history !== expected.history) return { reuse: false, why: 'it holds another history (the generator changed)' };
  if (stamp.model !== expected.model) return { reuse: false, why: "the read model's code changed since it was seeded" };
  if (stamp.generation !== liveGeneration)
    return { reuse: false, why: `generation ${liveGeneration} is live, the seed made generation ${stamp.generation}` };
  if (!rebuild?.finishedAt) return { reuse: false, why: 'the last rebuild into it did not finish' };
  if (rebuild.events !== stamp.published)
    return { reuse: false, why: `the last rebuild replayed ${rebuild.events} events of the ${stamp.published} published` };
  return { reuse: true };
}
