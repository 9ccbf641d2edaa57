// Prints every read document of a generated history rebuilt through the projector's own
// pipeline in memory, one line each (`<listing> <json>`, sorted by listing then _id), so a
// redesign can be checked byte for byte: run it on the commit before and after and compare.
//
//   node bench/dumpRebuild.ts [events=100000] [deferred] > after.txt
//
// `deferred` projects as a rebuild does (coaches and clubs derived once after the last batch,
// see replaySink): its documents equal the per-batch ones but for the writer's `rev` guards.
// To compare with a checkout from before projectEvents (issue 27), run that checkout's own copy.
import { existsSync } from 'node:fs';
import { createHistory } from '../generator/index.ts';
import { sweepDue } from '../projector/clock/sweepDue.ts';
import { projectEvents } from '../projector/write/projectEvents.ts';
import type { DomainEvent } from '../services/events/index.ts';
import type { MemoryProjectionStore as Store } from '../test/support/memoryProjectionStore.ts';

const here = new URL('..', import.meta.url);
const storeModule = existsSync(new URL('test/support/memoryProjectionStore.ts', here))
  ? '../test/support/memoryProjectionStore.ts'
  : '../projector/write/memoryProjectionStore.ts';
const { MemoryProjectionStore } = (await import(storeModule)) as { MemoryProjectionStore: typeof Store };

const now = new Date('2026-11-24T12:00:00Z');
const config = { zone: 'Europe/Riga', bufferPeriodDays: 30 };
const store = new MemoryProjectionStore({ clone: true });
// Imported only when asked for, so that the file still runs in checkouts that predate it.
const replay =
  process.argv[3] === 'deferred' ? (await import('../projector/write/projectionSink.ts')).replaySink(store, config, () => now) : undefined;
const fold = (events: DomainEvent[]): Promise<unknown> => replay?.apply(events) ?? projectEvents(events, store, config, now);
let batch: DomainEvent[] = [];
for (const event of createHistory({ seed: 20261124, events: Number(process.argv[2] ?? 100_000), now })) {
  batch.push(event);
  if (batch.length === 2000) {
    await fold(batch);
    batch = [];
  }
}
await fold(batch);
await replay?.deriveDeferred();
await sweepDue(store, config, now);

const lines: string[] = [];
for (const listing of ['competitions', 'dancers', 'judges', 'coaches', 'clubs'] as const) {
  const docs = [...store.docs[listing].values()].sort((a, b) => String(a._id).localeCompare(String(b._id)));
  for (const doc of docs) lines.push(`${listing} ${JSON.stringify(doc)}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
