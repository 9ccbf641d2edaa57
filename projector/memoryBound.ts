import { readNodeFlags } from '../services/nodeFlags.ts';

/** The file holding the projector's Node flags, which every launch reads (services/nodeFlags.ts). */
export const PROJECTOR_MEMORY_FLAGS_FILE = 'scripts/projector.node-flags';

/**
 * The Node flags every projector launch carries (`npm start`, `npm run rebuild`, the image's
 * projector in docker-compose.yml, all reading PROJECTOR_MEMORY_FLAGS_FILE;
 * memoryBound.unit.test.ts checks that each launch reads it), so that a
 * rebuild, and the bootstrap of an empty read model, stays under 512 MB of resident memory.
 * Without them V8 lets garbage and fetched, serialized buffers build up between collections to
 * several times the live set; with them a rebuild takes a little longer (measured, both side by
 * side with `npm run bench:projector`: docs/performance.md, "The rebuild"). An operator
 * with more memory than speed to spare may drop them from the launch; NODE_OPTIONS cannot, since
 * the command line's flags come after it.
 */
export const PROJECTOR_MEMORY_FLAGS = readNodeFlags(PROJECTOR_MEMORY_FLAGS_FILE);
