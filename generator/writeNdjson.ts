import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';

/** Lines are gathered into chunks of about this size: one write per line would dominate. */
const CHUNK_CHARS = 1 << 20;

export interface WriteNdjsonOptions {
  /** Called after each chunk is handed to the file with the number of lines written so far. */
  readonly onProgress?: (written: number) => void;
}

/**
 * Writes one JSON document per line to `target` (a file path, created or truncated, or an open
 * stream such as stdout, which is left open) and resolves with the number of lines. Waits for
 * the stream to drain, so a generator of millions of events streams in bounded memory.
 */
export async function writeNdjson(
  target: string | Writable,
  items: Iterable<unknown> | AsyncIterable<unknown>,
  options: WriteNdjsonOptions = {},
): Promise<number> {
  const ownStream = typeof target === 'string';
  const stream = ownStream ? createWriteStream(target, { encoding: 'utf8' }) : target;
  let chunk = '';
  let written = 0;
  const flush = async (): Promise<void> => {
    if (chunk.length === 0) return;
    const ok = stream.write(chunk);
    chunk = '';
    options.onProgress?.(written);
    if (!ok) await once(stream, 'drain');
  };
  try {
    for await (const item of items) {
      chunk += `${JSON.stringify(item)}\n`;
      written++;
      if (chunk.length >= CHUNK_CHARS) await flush();
    }
    await flush();
  } finally {
    if (ownStream) {
      stream.end();
      await finished(stream);
    }
  }
  return written;
}
