import { readNodeFlags } from '../services/nodeFlags.ts';

/** The file holding the API's Node flags, which every launch reads (services/nodeFlags.ts). */
export const API_MEMORY_FLAGS_FILE = 'scripts/api.node-flags';

/**
 * The Node flags every API launch carries (`npm start`, the image's command, the API service in
 * docker-compose.yml, all reading API_MEMORY_FLAGS_FILE; memoryBound.unit.test.ts checks that each
 * launch reads it), so that an instance stays
 * well under the memory limit compose gives its container, beside the response cache
 * (CACHE_MAX_BYTES) and the rate limiter's per-client arrays, which live outside the heap.
 * Without a young-generation cap V8 sizes it from the machine, and most of an uncapped
 * instance's resident memory under a flood of distinct URLs and addresses was young generation;
 * with these flags throughput stayed the same (measured side by side, with the smaller old space
 * that proved too tight: docs/performance.md, "The API").
 */
export const API_MEMORY_FLAGS = readNodeFlags(API_MEMORY_FLAGS_FILE);
