import { MEMBERSHIP_DEFAULTS } from '../../services/config/index.ts';

/** The session timeout when none is given (the configuration's default, KAFKA_SESSION_TIMEOUT_MS). */
export const DEFAULT_SESSION_TIMEOUT_MS = MEMBERSHIP_DEFAULTS.sessionTimeoutMs;

/**
 * A chunk writes each document it touches once, however many of its events touch it, so while
 * catching up (a replay, a backlog) a bigger chunk writes and derives less per event (measured:
 * docs/performance.md, The projector's writes). Live, a batch holds only what arrived since the
 * last fetch, so chunks stay small and latency is not traded for it.
 */
export const DEFAULT_CHUNK_SIZE = 10_000;

/**
 * Partitions a live projector folds and writes at once. Partitions hold disjoint aggregates; what
 * they share (coaches, clubs) is written under guards, as by two instances. With the live bulks
 * in transactions (MongoProjectionStore), one partition's batch is folded while the database
 * commits another's, so the projector sustains a higher rate than one partition at a time
 * (measured: docs/performance.md, "Partitions at once").
 */
export const LIVE_PARTITIONS_AT_ONCE = 3;

/**
 * Fetch sizes of the projector's consumer (and of the benchmark's no-op consumer, so the two are
 * compared on the same fetches). kafkajs's default per partition capped every batch, and so every
 * chunk, well below DEFAULT_CHUNK_SIZE; these fill about one chunk per batch, and larger fetches
 * cost peak memory without saving writes (measured: docs/performance.md, The projector's writes).
 */
export const FETCH_LIMITS = { maxBytes: 16 * 1024 * 1024, maxBytesPerPartition: 4 * 1024 * 1024 } as const;

/**
 * A rebuild reads the whole log and serves nothing until it ends, so it trades memory and
 * latency for fewer writes: bigger chunks write each document fewer times and shorten the
 * replay. Its fetches are smaller than FETCH_LIMITS all the same: it replays two partitions at
 * once under the heap cap (memoryBound.ts), fetched buffers are a large part of its peak memory,
 * and smaller fetches cost it only a few more writes in about the same time (measured:
 * docs/performance.md, "The rebuild").
 */
export const REPLAY_CHUNK_SIZE = 25_000;
export const REPLAY_FETCH_LIMITS = { maxBytes: 12 * 1024 * 1024, maxBytesPerPartition: 3 * 1024 * 1024 } as const;
