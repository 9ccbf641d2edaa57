/**
 * The Node flags (README, operating) that keep a rebuild (and the bootstrap of an empty read model) under 512 MB of
 * resident memory, for an operator who runs the projector in a container of that size:
 * `NODE_OPTIONS="--max-old-space-size=320 --max-semi-space-size=8"`. Not the default, because
 * they cost time: V8 otherwise lets garbage build up to about 470 MB of heap and 200 MB of
 * fetched and serialized buffers between collections, and collecting sooner takes CPU from the
 * database on a small machine. Measured on 1,007,694 events into the local SecantusDB on 2 cores
 * (`npm run bench:projector` prints both side by side): 201-225 s and 713-769 MB peak RSS
 * without them (two runs), 235 s and 492 MB with them (one run). The live set is far below
 * either: 83 MB after a full collection at the end.
 */
export const BOUNDED_MEMORY_FLAGS = ['--max-old-space-size=320', '--max-semi-space-size=8'] as const;
