import type { ServerResponse } from 'node:http';
import type { ChangesQuery } from '../../schemas/api/changes.ts';
import { formatCursor } from '../../services/changes/index.ts';
import { isApiError } from '../http/index.ts';
import type { ApiUrls } from './apiUrls.ts';
import type { ChangeFeed } from './changeFeed.ts';
import { changeBody, changeFilter, collectChanges, startAfter, type ChangeFilter } from './changesPage.ts';

/** A comment line this often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;
/** What `EventSource` waits before reconnecting. */
const RETRY_MS = 2_000;
/** Changes written per step while a stream catches up. */
const STEP = 500;

export interface ChangeStreamOptions {
  readonly feed: ChangeFeed;
  readonly urls: ApiUrls;
  /** Unsent bytes past which the stream is cut with its last cursor. */
  readonly bufferBytes: number;
  readonly heartbeatMs?: number;
}

/**
 * Serves one Server-Sent Events stream until the client goes away, the stream is cut or the
 * feed's generation changes. A 410 or 400 is thrown before any byte is sent (the error
 * middleware answers it as JSON).
 */
export async function serveChangeStream(
  res: ServerResponse,
  query: ChangesQuery,
  lastEventId: string | undefined,
  options: ChangeStreamOptions,
): Promise<void> {
  const state = await options.feed.state();
  const after = startAfter(lastEventId ?? query.after, state, lastEventId === undefined ? 'after' : 'Last-Event-ID');
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
  res.write(`retry: ${RETRY_MS}\n\n`);
  await new ChangeStream(res, options, state.generation, after, changeFilter(query)).done;
}

/**
 * One subscriber. What it holds: its position, its filter, a timer, and at most `bufferBytes` of
 * unsent text in the socket (past that it is cut, never buffered further). The changes come from
 * the feed's one reader and its ring.
 */
class ChangeStream {
  readonly done: Promise<void>;
  #finished: () => void = () => undefined;
  #ended = false;
  #busy = false;
  #again = false;
  #lastSent: string;
  readonly #stopListening: () => void;
  readonly #heartbeat: NodeJS.Timeout;

  private readonly res: ServerResponse;
  private readonly options: ChangeStreamOptions;
  private readonly generation: number;
  private position: number;
  private readonly filter: ChangeFilter;

  constructor(res: ServerResponse, options: ChangeStreamOptions, generation: number, position: number, filter: ChangeFilter) {
    this.res = res;
    this.options = options;
    this.generation = generation;
    this.position = position;
    this.filter = filter;
    this.done = new Promise<void>((resolve) => (this.#finished = resolve));
    this.#lastSent = formatCursor({ generation, seq: position });
    this.#heartbeat = setInterval(() => {
      if (this.#overBudget()) this.#cut();
      else res.write(': heartbeat\n\n');
    }, options.heartbeatMs ?? HEARTBEAT_MS);
    res.once('close', () => this.#end());
    this.#stopListening = options.feed.listen(() => void this.#pump());
    void this.#pump();
  }

  #overBudget(): boolean {
    return this.res.writableLength > this.options.bufferBytes;
  }

  #cut(): void {
    this.#end(`event: cut\nid: ${this.#lastSent}\ndata: ${JSON.stringify({ cursor: this.#lastSent })}\n\n`);
  }

  #end(finalEvent?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopListening();
    clearInterval(this.#heartbeat);
    if (finalEvent !== undefined && !this.res.destroyed) this.res.end(finalEvent);
    else this.res.end();
    this.#finished();
  }

  /** Writes every released change after the position; one pump at a time, run again if woken meanwhile. */
  async #pump(): Promise<void> {
    if (this.#busy) {
      this.#again = true;
      return;
    }
    this.#busy = true;
    try {
      do {
        this.#again = false;
        while (!this.#ended && (await this.#step()));
      } while (this.#again && !this.#ended);
    } catch (error) {
      if (!isApiError(error)) this.#end();
    } finally {
      this.#busy = false;
    }
  }

  /** One step of at most STEP changes; false when caught up or ended. */
  async #step(): Promise<boolean> {
    const { feed, urls } = this.options;
    const current = await feed.state();
    if (current.generation !== this.generation) {
      const error = { type: 'CURSOR_EXPIRED', message: 'The read model was replaced (a rebuild); resync from the listings.', details: [] };
      this.#end(`event: expired\ndata: ${JSON.stringify({ error })}\n\n`);
      return false;
    }
    const { matched, last } = await collectChanges(feed, this.position, STEP, this.filter);
    if (last === this.position) return false;
    for (const record of matched) {
      const cursor = formatCursor({ generation: this.generation, seq: record._id });
      this.res.write(`event: change\nid: ${cursor}\ndata: ${JSON.stringify(changeBody(record, this.generation, urls))}\n\n`);
      this.#lastSent = cursor;
    }
    this.position = last;
    if (this.#overBudget()) {
      this.#cut();
      return false;
    }
    return true;
  }
}
