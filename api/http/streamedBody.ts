/**
 * A body a route makes piece by piece (a page read from a cursor, the calendar feed): the
 * pipeline gathers it up to the answer budget and sends it whole (hashed, cached, compressed
 * once) when it ends within the budget, and streams it with backpressure when it does not, so
 * no answer is ever held whole in memory past the budget, whatever the stored documents hold.
 */
export class StreamedBody {
  readonly contentType: string;
  readonly chunks: AsyncIterable<string | Buffer>;

  constructor(contentType: string, chunks: AsyncIterable<string | Buffer>) {
    this.contentType = contentType;
    this.chunks = chunks;
  }
}

export type Gathered =
  | { readonly whole: Buffer }
  | {
      /** The bytes read so far, past the budget. */
      readonly head: Buffer[];
      /** The rest of the body, not yet read. */
      readonly rest: AsyncIterator<string | Buffer>;
    };

/**
 * Reads `body` until it ends (whole) or its bytes pass `budget` (head and rest). On an error the
 * body's iterator is closed (its cursor with it) and the error thrown.
 */
export async function gatherBody(body: StreamedBody, budget: number): Promise<Gathered> {
  const iterator = body.chunks[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const step = await iterator.next();
      if (step.done) return { whole: head.length === 1 ? head[0]! : Buffer.concat(head, bytes) };
      const chunk = typeof step.value === 'string' ? Buffer.from(step.value) : step.value;
      head.push(chunk);
      bytes += chunk.length;
      if (bytes > budget) return { head, rest: iterator };
    }
  } catch (error) {
    await iterator.return?.();
    throw error;
  }
}

/** The whole body: `head`, then what `rest` yields, as bytes. (Its reader closes `rest` when it is done with it.) */
export async function* remainingBody(head: Buffer[], rest: AsyncIterator<string | Buffer>): AsyncGenerator<Buffer> {
  for (const chunk of head.splice(0)) yield chunk;
  for (;;) {
    const step = await rest.next();
    if (step.done) return;
    yield typeof step.value === 'string' ? Buffer.from(step.value) : step.value;
  }
}
