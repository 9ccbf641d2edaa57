import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { writeNdjson } from './writeNdjson.ts';

describe('writeNdjson', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ndjson-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one JSON document per line from a lazy source and counts them', async () => {
    function* rows(): Generator<{ n: number; text: string }> {
      for (let n = 0; n < 50_000; n++) yield { n, text: `Rīga ${n} — "quoted"\nline` };
    }
    const path = join(dir, 'rows.ndjson');
    const progress: number[] = [];
    const written = await writeNdjson(path, rows(), { onProgress: (count) => progress.push(count) });
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(written).toBe(50_000);
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(50_000);
    expect(JSON.parse(lines[49_999] ?? '')).toEqual({ n: 49_999, text: 'Rīga 49999 — "quoted"\nline' });
    expect(progress.at(-1)).toBe(50_000);
  });

  it('waits for a slow stream to drain and leaves a stream it did not open open', async () => {
    const stream = new PassThrough({ highWaterMark: 1024 });
    const chunks: string[] = [];
    // A reader that takes its time: the writer must wait for 'drain' rather than buffer everything.
    const reading = (async () => {
      for await (const chunk of stream) {
        chunks.push(String(chunk));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    async function* rows(): AsyncGenerator<number[]> {
      for (let n = 0; n < 3000; n++) {
        if (n % 500 === 0) await Promise.resolve();
        yield Array.from({ length: 200 }, () => n);
      }
    }
    expect(await writeNdjson(stream, rows())).toBe(3000);
    expect(stream.writableEnded).toBe(false);
    stream.end();
    await reading;
    expect(chunks.join('').split('\n')).toHaveLength(3001);
  });
});
