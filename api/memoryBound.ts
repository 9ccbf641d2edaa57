/**
 * The Node flags every API launch carries (`npm start`, the image's command, the API service in
 * docker-compose.yml; memoryBound.unit.test.ts keeps them in step), so that an instance stays
 * well under the memory limit compose gives its container, beside the response cache
 * (CACHE_MAX_BYTES) and the rate limiter's per-client arrays, which live outside the heap.
 * Without a young-generation cap V8 sizes it from the machine, and most of an uncapped
 * instance's resident memory under a flood of distinct URLs and addresses was young generation;
 * with these flags throughput stayed the same (measured side by side, with the smaller old space
 * that proved too tight: docs/performance.md, The cache hit before the work).
 */
export const API_MEMORY_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=16'] as const;
