import type { Db } from 'mongodb';
import { createHistory } from '../generator/index.ts';
import { sweepDue } from '../projector/clock/sweepDue.ts';
import { MemoryProjectionStore } from '../test/support/memoryProjectionStore.ts';
import { replaySink } from '../projector/write/projectionSink.ts';
import { projectionCollections } from '../projector/write/projectionCollections.ts';
import { ensureMeta } from '../services/mongo/index.ts';
import { ensureReadModelIndexes, readCollectionIndexes } from '../services/readModel/indexPlan.ts';

/**
 * Read documents of a generated history in generation 1 of `db`, made by the projector's own
 * pipeline in memory (deriving coaches and clubs once at the end, as a rebuild does) and
 * bulk-inserted before the indexes are built, as a rebuild builds them (the documents are the
 * same; millions of events through the writer would take the stand-in much longer).
 */
export async function seedReadModel(
  db: Db,
  opts: { seed: number; events: number; now: Date; log: (line: string) => void },
): Promise<Record<string, number>> {
  const store = new MemoryProjectionStore({ clone: false });
  const config = { zone: 'UTC', bufferPeriodDays: 30 };
  const sink = replaySink(store, config, () => opts.now);
  let batch = [];
  let folded = 0;
  for (const event of createHistory({ seed: opts.seed, events: opts.events, now: opts.now })) {
    batch.push(event);
    if (batch.length === 5000) {
      await sink.apply(batch);
      folded += batch.length;
      batch = [];
      if (folded % 250_000 === 0) opts.log(`folded ${folded} events`);
    }
  }
  await sink.apply(batch);
  await sink.deriveDeferred();
  await sweepDue(store, config, opts.now);
  const names = projectionCollections((await ensureMeta(db)).generation);
  const counts: Record<string, number> = {};
  for (const listing of ['competitions', 'dancers', 'judges', 'coaches', 'clubs'] as const) {
    // SecantusDB builds an index in one transaction: the search index over the 173,360 dancers
    // of 2,000,000 events (millions of token keys) retried on write conflicts without end with
    // a 12G cache (stopped after 223 s). Made before the documents, it grows with each insert.
    const search = readCollectionIndexes(listing).filter((index) => 'q.tokens' in index.key);
    if (search.length > 0) await db.collection(names.read[listing]).createIndexes(search);
    const docs = [...store.docs[listing].values()].filter((d) => d.registryState !== 'GONE');
    for (let i = 0; i < docs.length; i += 5000)
      await db.collection(names.read[listing]).insertMany(docs.slice(i, i + 5000), { ordered: false });
    counts[listing] = docs.length;
    opts.log(`inserted ${docs.length} ${listing}`);
  }
  const began = performance.now();
  await ensureReadModelIndexes(db, names);
  opts.log(`built the indexes in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  return counts;
}
