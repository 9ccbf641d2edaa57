// Scratch: in-process pipeline cost without Kafka.
import { createHistory } from '../generator/index.ts';
import { parseEventBytes, type DomainEvent } from '../services/events/index.ts';
import { MemoryProjectionStore } from '../projector/write/memoryProjectionStore.ts';
import { projectBatch } from '../projector/write/projectBatch.ts';
import { createHash } from 'node:crypto';

const N = Number(process.argv[2] ?? 200000);
const CHUNK = Number(process.argv[3] ?? 2000);
const NOW = new Date('2026-11-23T12:00:00Z');
const parts: Buffer[][] = [[], [], [], [], [], []];
for (const e of createHistory({ seed: 1, events: N, now: NOW })) {
  const p = createHash('md5').update(e.aggregateId).digest()[0]! % 6;
  parts[p]!.push(Buffer.from(JSON.stringify(e)));
}
const total = parts.reduce((a, p) => a + p.length, 0);
const store = new MemoryProjectionStore({ clone: false, keepDocuments: false });
const config = { zone: 'UTC', bufferPeriodDays: 30 };
let tParse = 0, tProject = 0;
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const session = new Session(); session.connect();
if (process.env.PROFILE) { await session.post('Profiler.enable'); await session.post('Profiler.start'); }
const t0 = performance.now();
const cursors = parts.map(() => 0);
let left = total;
while (left > 0) {
  for (let p = 0; p < 6; p++) {
    const chunk = parts[p]!.slice(cursors[p], cursors[p]! + CHUNK);
    cursors[p]! += chunk.length; left -= chunk.length;
    if (!chunk.length) continue;
    const a = performance.now();
    const events: DomainEvent[] = [];
    for (const b of chunk) { const r = parseEventBytes(b); if (r.ok) events.push(r.event); }
    const b = performance.now();
    await projectBatch({ events }, store, config, NOW);
    tProject += performance.now() - b; tParse += b - a;
  }
}
const t = performance.now() - t0;
if (process.env.PROFILE) { const { profile } = await session.post('Profiler.stop'); writeFileSync(process.env.PROFILE, JSON.stringify(profile)); }
console.log(JSON.stringify({ total, ms: Math.round(t), perEventUs: (t * 1000 / total).toFixed(2), parseUs: (tParse * 1000 / total).toFixed(2), projectUs: (tProject * 1000 / total).toFixed(2), writesPerEvent: (store.totalWrites / total).toFixed(2), rss: Math.round(process.resourceUsage().maxRSS / 1024), w: Object.fromEntries(store.writes) }));
(globalThis as { gc?: () => void }).gc?.();
const mu = process.memoryUsage();
console.log(JSON.stringify({ heapMB: Math.round(mu.heapUsed / 1e6), extMB: Math.round(mu.external / 1e6), abMB: Math.round(mu.arrayBuffers / 1e6), rssNowMB: Math.round(mu.rss / 1e6) }));
