/**
 * The Node flags every projector launch carries (`npm start`, `npm run rebuild`, the image's
 * projector in docker-compose.yml; memoryBound.unit.test.ts keeps them in step), so that a
 * rebuild, and the bootstrap of an empty read model, stays under 512 MB of resident memory.
 * Without them V8 lets garbage build up to about 470 MB of heap and 200 MB of fetched and
 * serialized buffers between collections, against a live set of about 83 MB. Measured on
 * 1,007,694 events into the local SecantusDB on 2 cores (`npm run bench:projector` prints both
 * side by side), when the replay still wrote documents: 169 s and 837 MB peak RSS without them,
 * 180 s and 502 MB with them (one run each); with the replay writing states only (6 MB fetches
 * per partition), 139 s and 682 MB without them and 143-154 s and 433-509 MB with them (one and
 * five runs), and with 3 MB fetches 152-155 s and 426-439 MB with them (two runs). An operator with more memory than speed to spare may drop
 * them from the launch; NODE_OPTIONS cannot, since the command line's flags come after it.
 */
export const PROJECTOR_MEMORY_FLAGS = ['--max-old-space-size=320', '--max-semi-space-size=8'] as const;
