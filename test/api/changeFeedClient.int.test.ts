import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeedGoneError, createFederationClient, type Change } from '../../client/index.ts';
import { competitionId } from './eventBuilders.ts';
import { changeFeedRig, type ChangeFeedRig } from './changeFeedRig.ts';

// The typed client's change iterator on the real path: events through the real Kafka and the real
// projector into the database, the API serving the feed, a proxy in between whose connections
// are cut while the client waits in a long poll. The client must resume from its last cursor and
// see every change the feed holds once, in the feed's order.

let rig: ChangeFeedRig;

beforeAll(async () => {
  rig = await changeFeedRig('client-feed');
});
afterAll(async () => {
  await rig?.close();
});

const competitionChanges = (changes: readonly Change[]) =>
  changes.filter((c) => c.type === 'competition').map((c) => `${c.action} ${c.id}`);

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('client.changes() against the API and the projector', () => {
  it(
    'follows the feed through a cut connection, resuming from its last cursor: every change once, in order',
    { timeout: 90_000 },
    async () => {
      const api = createFederationClient(`${rig.origin}/api/v1`, { retry: { baseDelayMs: 100, maxDelayMs: 1_000 } });
      const stop = new AbortController();
      const received: Change[] = [];
      const following = (async () => {
        for await (const change of api.changes({ waitSeconds: 10, type: ['competition'], signal: stop.signal })) received.push(change);
      })();

      await rig.publish(1);
      await rig.publish(2);
      await until(() => received.length >= 2, 'the first two changes');
      // Two competitions may sit on two partitions: which one the API made visible first is the feed's to say (checked below).
      expect(competitionChanges(received).sort()).toEqual([`created ${competitionId(1)}`, `created ${competitionId(2)}`].sort());
      const before = received.at(-1)!.cursor;

      // The client is in a long poll now; cut it, and make changes while it is cut off.
      const requestsBefore = rig.proxy.heads.length;
      expect(rig.proxy.drop()).toBeGreaterThan(0);
      await rig.publish(3);
      await rig.rename(1, 'Renamed while cut off');
      await until(() => received.length >= 4, 'the changes made while cut off');

      stop.abort();
      await following;
      expect(competitionChanges(received).slice(2).sort()).toEqual([`created ${competitionId(3)}`, `changed ${competitionId(1)}`].sort());
      // Exactly the feed: none twice, none missing, in its order.
      const feed = (await rig.feed()).filter((c) => c.type === 'competition');
      expect(received.map((c) => c.cursor)).toEqual(feed.map((c) => c.cursor));
      // The request after the cut asked from the last cursor the client had yielded.
      const after = rig.proxy.heads.slice(requestsBefore).map((head) => /[?&]after=([^&\s]+)/.exec(head.split('\r\n')[0]!)?.[1]);
      expect(after[0]).toBe(before);
    },
  );

  it('rejects with a ChangeFeedGoneError for a cursor of another generation, or goes on from the cursor onGone gives', async () => {
    const api = createFederationClient(`${rig.origin}/api/v1`);
    const failure: unknown = await (async () => {
      for await (const change of api.changes({ after: '999.1', waitSeconds: 0 })) void change;
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ChangeFeedGoneError);
    expect(failure).toMatchObject({ status: 410, error: { type: 'CURSOR_EXPIRED' } });
    expect((failure as Error).message).toMatch(/Resync from the listings/);

    // The recipe: meta.latest read before the resync (typed: the JSON form of /changes).
    const { meta } = await api.request('/changes', { params: { query: { limit: 1 } } });
    const latest: string = meta.latest;
    const gone: ChangeFeedGoneError[] = [];
    const stop = new AbortController();
    const received: Change[] = [];
    const following = (async () => {
      const onGone = (error: ChangeFeedGoneError): string => {
        gone.push(error);
        return latest;
      };
      for await (const change of api.changes({ after: '999.1', waitSeconds: 10, signal: stop.signal, onGone })) received.push(change);
    })();
    await rig.publish(9);
    await until(() => received.some((c) => c.id === competitionId(9)), 'the change after the resync');
    stop.abort();
    await following;
    expect(gone).toHaveLength(1);
    expect(competitionChanges(received)).toEqual([`created ${competitionId(9)}`]);
  });
});
