import type { Change, ChangeListEnvelope, ChangesQuery } from '../../schemas/api/changes.ts';
import { formatCursor, LISTING_OF, parseCursor, type ChangeRecord } from '../../services/changes/index.ts';
import { countryIdKey, foldSearchText } from '../../services/readModel/index.ts';
import { ApiError } from '../http/index.ts';
import type { ApiUrls } from './apiUrls.ts';
import { CursorTrimmed, type ChangeFeed, type FeedState } from './changeFeed.ts';

/** Changes looked at per page at most, matching or not: a page's cost is bounded whatever the filters. */
const SCAN = 2_000;

/** Which changes a request wants. */
export type ChangeFilter = (record: ChangeRecord) => boolean;

export function changeFilter(query: Pick<ChangesQuery, 'type' | 'country' | 'countryId'>): ChangeFilter {
  const types = query.type ? new Set<string>(query.type) : null;
  const country = query.country === undefined ? null : foldSearchText(query.country.trim());
  const countryId = query.countryId === undefined ? null : countryIdKey(query.countryId);
  return (record) =>
    (types === null || types.has(record.type)) &&
    (country === null || record.country.includes(country)) &&
    (countryId === null || record.country.includes(countryId));
}

/**
 * The position a request starts after: its cursor (`Last-Event-ID` before `after` on a stream),
 * or, without one, the oldest change kept. A cursor of another generation or older than what
 * is kept answers 410.
 */
export function startAfter(cursor: string | undefined, state: FeedState, parameter: string): number {
  if (cursor === undefined) return state.trimmedThrough;
  const position = parseCursor(cursor);
  if (position === null) {
    throw new ApiError('INVALID_REQUEST', 'One or more query parameters are invalid.', {
      details: [`${parameter}: not a cursor of this feed`],
    });
  }
  const resync = `${parameter}: resync with the listings (updatedSince) and follow from a meta.latest of /changes read before the resync`;
  if (position.generation !== state.generation) {
    throw new ApiError(
      'CURSOR_EXPIRED',
      `The cursor ${cursor} belongs to a read model the API no longer serves; resync from the listings.`,
      {
        details: [resync],
      },
    );
  }
  if (position.seq < state.trimmedThrough) {
    throw new ApiError('CURSOR_EXPIRED', `The cursor ${cursor} is older than the changes the feed keeps; resync from the listings.`, {
      details: [resync],
    });
  }
  return position.seq;
}

export interface CollectedChanges {
  matched: ChangeRecord[];
  /** The position the next request starts after: the last change looked at (matching or not). */
  last: number;
  /** Whether released changes after `last` are waiting already. */
  hasMore: boolean;
}

/** Up to `limit` released changes after `after` that pass `filter`, looking at no more than SCAN. */
export async function collectChanges(feed: ChangeFeed, after: number, limit: number, filter: ChangeFilter): Promise<CollectedChanges> {
  const matched: ChangeRecord[] = [];
  let last = after;
  let scanned = 0;
  while (matched.length < limit && scanned < SCAN) {
    const records = await feed.after(last, SCAN - scanned);
    if (records.length === 0) break;
    for (const record of records) {
      last = record._id;
      scanned++;
      if (filter(record) && matched.push(record) === limit) break;
    }
  }
  const { released } = await feed.state();
  return { matched, last, hasMore: last < released };
}

/** The public form of a change. */
export function changeBody(record: ChangeRecord, generation: number, urls: ApiUrls): Change {
  const listing = LISTING_OF[record.type];
  const url = listing === 'competitions' || listing === 'clubs' ? urls.api(`/${listing}/${record.id}`) : null;
  return {
    cursor: formatCursor({ generation, seq: record._id }),
    at: record.at.toISOString(),
    type: record.type,
    id: record.id,
    action: record.action,
    url,
  };
}

/** A JSON page of the feed; with `wait`, an empty page is held until a matching change is released or the wait ends. */
export async function changesPage(
  feed: ChangeFeed,
  query: ChangesQuery,
  urls: ApiUrls,
  closed: () => boolean,
): Promise<ChangeListEnvelope> {
  const state = await feed.state();
  const after = startAfter(query.after, state, 'after');
  const filter = changeFilter(query);
  let collected = await collectChanges(feed, after, query.limit, filter).catch((error: unknown) => {
    if (error instanceof CursorTrimmed) startAfter(query.after, { ...state, trimmedThrough: error.trimmedThrough }, 'after');
    throw error;
  });
  const waitMs = (query.wait ?? 0) * 1000;
  if (collected.matched.length === 0 && waitMs > 0) {
    const until = performance.now() + waitMs;
    await new Promise<void>((resolve) => {
      let busy = false;
      const done = (): void => {
        stopListening();
        clearTimeout(timer);
        resolve();
      };
      const stopListening = feed.listen(() => {
        if (busy) return;
        busy = true;
        void collectChanges(feed, collected.last, query.limit, filter)
          .then((next) => {
            collected = next;
            if (next.matched.length > 0 || closed() || performance.now() >= until) done();
          })
          .catch(done)
          .finally(() => (busy = false));
      });
      const timer = setTimeout(done, waitMs);
    });
  }
  // A switch of generation while this page was read or waited: its positions are the old generation's, so the cursor has expired.
  if ((await feed.state()).generation !== state.generation)
    startAfter(formatCursor({ generation: state.generation, seq: collected.last }), await feed.state(), 'after');
  const { generation, released } = await feed.state();
  const last = formatCursor({ generation, seq: collected.last });
  const query_ = { ...query };
  return {
    data: collected.matched.map((record) => changeBody(record, generation, urls)),
    meta: {
      limit: query.limit,
      after: query.after ?? null,
      last,
      latest: formatCursor({ generation, seq: released }),
      hasMore: collected.hasMore,
    },
    links: { self: urls.api('/changes', query_), next: urls.api('/changes', { ...query_, after: last }) },
  };
}
