import type { Change, ChangePage } from '../../client/index.ts';
import { runProjector, type RunningProjector } from '../../projector/runProjector.ts';
import { createHarness, type Harness } from '../support/projectorHarness.ts';
import { History, competitionDetails, competitionId } from './eventBuilders.ts';
import { droppableProxy, type DroppableProxy } from './droppableProxy.ts';
import type { Listening } from './listenOnFreePort.ts';
import { startApiOnPort } from './startApiOnPort.ts';

/** The projector's and the API's "now": the competitions below are upcoming. */
export const NOW = new Date('2026-11-23T12:00:00Z');

export interface ChangeFeedRig {
  /** The API as clients reach it: through a proxy whose connections the test may cut. */
  origin: string;
  proxy: DroppableProxy;
  /** Drafts and publishes competition `n` (one `created` change once projected). */
  publish(n: number): Promise<void>;
  /** Renames competition `n` (one `changed` change). */
  rename(n: number, name: string): Promise<void>;
  /** The whole feed as it is now, in its JSON form, from the oldest change kept. */
  feed(): Promise<Change[]>;
  close(): Promise<void>;
}

/**
 * The change feed's real path end to end: events produced to a fresh topic on the real Kafka,
 * folded by the real projector (runProjector, in this process) into a fresh database, served
 * by the app on a real port behind a droppable TCP proxy whose origin is the API's public URL.
 */
export async function changeFeedRig(prefix: string): Promise<ChangeFeedRig> {
  const harness: Harness = await createHarness({ partitions: 3, config: { zone: 'UTC', bufferPeriodDays: 30 } });
  const projector: RunningProjector = await runProjector({ ...harness.context(NOW, { chunkSize: 50 }), clockSchedule: '*/1 * * * * *' });
  const proxy = await droppableProxy();
  const server: Listening = await startApiOnPort(harness.mongo.db, NOW, () => ({ API_PUBLIC_URL: proxy.origin }));
  proxy.target(Number(new URL(server.origin).port));
  const histories = new Map<number, History>();
  const history = (n: number): History => {
    const found = histories.get(n) ?? new History(competitionId(n));
    histories.set(n, found);
    return found;
  };
  const at = (): string => new Date().toISOString();
  const produceLast = async (h: History, count: number): Promise<void> => harness.produce(h.events.slice(-count));
  return {
    origin: proxy.origin,
    proxy,
    async publish(n) {
      const h = history(n)
        .at(
          at(),
          'competition.drafted',
          competitionDetails(n, { slug: `${prefix}-${n}`, dates: { start: '2027-05-01', end: '2027-05-02' } }),
        )
        .at(at(), 'competition.published', {});
      await produceLast(h, 2);
    },
    async rename(n, name) {
      await produceLast(history(n).at(at(), 'competition.details_changed', { name }), 1);
    },
    async feed() {
      const all: Change[] = [];
      for (let after: string | undefined; ;) {
        const query = after === undefined ? 'limit=100' : `limit=100&after=${after}`;
        const page = (await (await fetch(`${server.origin}/api/v1/changes?${query}`)).json()) as ChangePage;
        all.push(...page.data);
        if (!page.meta.hasMore) return all;
        after = page.meta.last;
      }
    },
    async close() {
      await proxy.close();
      await server.close();
      await projector.stop();
      await harness.close();
    },
  };
}
