import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogDestination } from './logDestination.ts';

// Real pipes (a FIFO: Node has no pipe(2)), files and /dev/full: what a log reader can do to a
// process is what these are. Every write below is synchronous, so a write that blocked would hang
// the test instead of passing it.

const opened: number[] = [];
let dir = '';
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** A pipe as the process would get it: the reader's end (non-blocking, so the test can poll) and a blocking writer's end. */
function pipe(): { reader: number; writer: number } {
  dir = mkdtempSync(join(tmpdir(), 'log-destination-'));
  const path = join(dir, 'fifo');
  execFileSync('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY);
  opened.push(reader, writer);
  return { reader, writer };
}

/** Everything the pipe holds now. */
function readAll(fd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(1 << 16);
  for (;;) {
    try {
      const n = readSync(fd, buffer);
      if (n === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw error;
    }
  }
  return Buffer.concat(chunks).toString();
}

const line = (i: number): string => `${JSON.stringify({ i, msg: 'x'.repeat(200) })}\n`;

/** The end of the current event-loop turn, when the destination writes the turn's lines. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createLogDestination', () => {
  it('never blocks on a full pipe, and writes every line in order once the reader reads again', async () => {
    const { reader, writer } = pipe();
    const log = createLogDestination(writer, { retryMs: 5 });
    // About 2.3 MB into a pipe of 64 KiB that nobody reads: each write returns at once.
    for (let i = 0; i < 10_000; i++) log.write(line(i));
    let text = '';
    for (let rounds = 0; rounds < 2_000 && !text.endsWith(line(9_999)); rounds++) {
      text += readAll(reader);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await log.drain(1_000);
    text += readAll(reader);
    expect(text).toBe(Array.from({ length: 10_000 }, (_, i) => line(i)).join(''));
    expect(log.dropped).toBe(0);
  });

  it('holds at most its bound while the reader is stuck, drops and counts the rest, and says so when it catches up', async () => {
    const { reader, writer } = pipe();
    const log = createLogDestination(writer, { retryMs: 5, maxQueuedBytes: 20_000 });
    for (let i = 0; i < 2_000; i++) log.write(line(i));
    await nextTurn();
    expect(log.dropped).toBeGreaterThan(1_000);
    const dropped = log.dropped;
    let text = '';
    const drained = log.drain(2_000);
    while (!text.includes('log lines dropped')) {
      text += readAll(reader);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await drained;
    const lines = text.trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({
      level: 40,
      msg: `${dropped} log lines dropped: the log reader did not keep up, went away or its disk was full`,
    });
    // What got through is a prefix of what was written (order kept, nothing torn).
    const written = lines.slice(0, -1);
    expect(written).toEqual(Array.from({ length: written.length }, (_, i) => line(i).trimEnd()));
    expect(written.length + dropped).toBe(2_000);
  });

  it('drops lines without throwing once the reader has gone (EPIPE), and drains at once', async () => {
    const { reader, writer } = pipe();
    const log = createLogDestination(writer);
    log.write(line(0));
    await nextTurn();
    closeSync(reader);
    opened.splice(opened.indexOf(reader), 1);
    for (let i = 1; i <= 100; i++) log.write(line(i));
    await nextTurn();
    expect(log.dropped).toBe(100);
    await log.drain(10_000);
  });

  it('drops lines without throwing on a full disk (ENOSPC), and writes again to a file', async () => {
    const full = openSync('/dev/full', 'w');
    opened.push(full);
    const log = createLogDestination(full);
    for (let i = 0; i < 10; i++) log.write(line(i));
    await nextTurn();
    expect(log.dropped).toBe(10);

    dir = mkdtempSync(join(tmpdir(), 'log-destination-'));
    const file = openSync(join(dir, 'log'), 'a');
    opened.push(file);
    const toFile = createLogDestination(file);
    for (let i = 0; i < 3; i++) toFile.write(line(i));
    await nextTurn();
    expect(readFileSync(join(dir, 'log'), 'utf8')).toBe(line(0) + line(1) + line(2));
  });

  it("writes a turn's lines with one write(2), and drain writes the current turn's at once", async () => {
    const { reader, writer } = pipe();
    const log = createLogDestination(writer);
    log.write(line(0));
    log.write(line(1));
    // Nothing yet: the lines wait for the end of the turn.
    expect(readAll(reader)).toBe('');
    await nextTurn();
    expect(readAll(reader)).toBe(line(0) + line(1));
    // A process about to exit drains: the lines of its last turn must not wait for a turn that never comes.
    log.write(line(2));
    await log.drain(1_000);
    expect(readAll(reader)).toBe(line(2));
  });
});
