import { writeSync } from 'node:fs';

/**
 * Log bytes the reader has not taken yet, bounded in bytes, written to a descriptor whose writes
 * return at once (see createLogDestination). Each chunk keeps the number of log lines it holds
 * (0 for our own "lines dropped" notice: losing one is not a dropped log line).
 */
export class LogWriteQueue {
  /** Lines dropped so far because the reader did not keep up, went away or the disk was full. */
  dropped = 0;
  private reportedDrops = 0;
  // The last write failed (not for a full pipe): the reader is gone or the disk full for now.
  private failing = false;
  private readonly chunks: { bytes: Buffer; lines: number }[] = [];
  private queuedBytes = 0;
  private readonly target: number;
  private readonly maxQueuedBytes: number;

  constructor(target: number, maxQueuedBytes: number) {
    this.target = target;
    this.maxQueuedBytes = maxQueuedBytes;
  }

  get empty(): boolean {
    return this.chunks.length === 0;
  }

  /** Queues one turn's lines: together when they fit, else line by line (the lines that fit are kept whole, in order, the rest dropped). */
  enqueueLines(lines: readonly string[]): void {
    const joined = Buffer.from(lines.length === 1 ? lines[0]! : lines.join(''));
    if (this.queuedBytes + joined.length <= this.maxQueuedBytes) this.enqueue(joined, lines.length);
    else for (const line of lines) this.enqueue(Buffer.from(line), 1);
  }

  /**
   * Queues a line saying how many lines were lost since the last such line, once writes succeed
   * again: in the log itself, where whoever reads it will see the gap. True when it queued one.
   */
  enqueueDropNotice(): boolean {
    if (this.dropped <= this.reportedDrops || this.failing) return false;
    const lost = this.dropped - this.reportedDrops;
    this.reportedDrops = this.dropped;
    const msg = `${lost} log lines dropped: the log reader did not keep up, went away or its disk was full`;
    this.enqueue(Buffer.from(`${JSON.stringify({ level: 40, time: new Date().toISOString(), msg })}\n`), 0);
    return true;
  }

  /** Writes as much of the queue as the reader takes now; true when it took everything. */
  flush(): boolean {
    while (this.chunks.length > 0) {
      const head = this.chunks[0]!;
      let written: number;
      try {
        written = writeSync(this.target, head.bytes);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return false;
        // Gone (EPIPE, EBADF) or full (ENOSPC): these lines are lost, the next ones try again.
        this.chunks.shift();
        this.queuedBytes -= head.bytes.length;
        this.dropped += head.lines;
        this.failing = true;
        continue;
      }
      this.failing = false;
      this.queuedBytes -= written;
      if (written === head.bytes.length) this.chunks.shift();
      else head.bytes = head.bytes.subarray(written);
    }
    return true;
  }

  private enqueue(bytes: Buffer, lines: number): void {
    if (this.queuedBytes + bytes.length > this.maxQueuedBytes) {
      this.dropped += lines;
      return;
    }
    this.chunks.push({ bytes, lines });
    this.queuedBytes += bytes.length;
  }
}
