import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { ProjectorMetrics } from '../metrics/projectorMetrics.ts';
import { CommitChain } from './commitChain.ts';

export interface BatchHandlerDeps {
  /** Messages folded and written together. */
  chunkSize: number;
  heartbeatIntervalMs: number;
  applyChunk: (chunk: readonly KafkaMessage[], partition: number) => Promise<void>;
  metrics: ProjectorMetrics;
  onProgress?: (progress: { partition: number; offset: string; lag: number }) => void;
}

/**
 * kafkajs's `eachBatch`: cuts a fetched batch into chunks, applies them in order with the
 * session kept alive, and commits past each chunk once it is applied. Returns only when the
 * last commit has landed; a chunk that throws leaves its offset uncommitted, to be read again.
 */
export function batchHandler(deps: BatchHandlerDeps): (payload: EachBatchPayload) => Promise<void> {
  const { metrics } = deps;
  return async (payload) => {
    // kafkajs hands these as plain closures; calling them through the payload keeps `this` sound.
    const { batch } = payload;
    const { topic, partition, highWatermark } = batch;
    const commits = new CommitChain();
    try {
      for (let start = 0; start < batch.messages.length; start += deps.chunkSize) {
        if (!payload.isRunning() || payload.isStale()) return;
        const chunk = batch.messages.slice(start, start + deps.chunkSize);
        const last = chunk[chunk.length - 1]!;
        const began = performance.now();
        metrics.unapplied.pendingSince(partition, Number(chunk[0]!.timestamp));
        metrics.partitions.working(partition, chunk[0]!.offset);
        try {
          await whileAlive(() => deps.applyChunk(chunk, partition), payload, deps.heartbeatIntervalMs);
        } catch (error) {
          // Read again from its offset: the partition's stall gauges and readiness show the error while it lasts.
          metrics.partitions.failed(partition, chunk[0]!.offset, error);
          throw error;
        }
        payload.resolveOffset(last.offset);
        const lag = Math.max(0, Number(BigInt(highWatermark) - BigInt(last.offset) - 1n));
        // The next message, not fetched yet, was appended no earlier than the last applied one.
        if (lag === 0) metrics.unapplied.caughtUp(partition);
        else if (start + deps.chunkSize >= batch.messages.length) metrics.unapplied.pendingSince(partition, Number(last.timestamp));
        // Through the batch, not consumer.commitOffsets: that retries every error under kafkajs's
        // retry policy, a rebalance's too, and a member whose commit was refused that way rejoined
        // too late (the fail-over test waited long for the survivor; measured: docs/performance.md,
        // Fail-over). Here a refused commit ends the batch at once; kafkajs rejoins on a rebalance
        // and fetches again on anything else, and the chunk, durable but uncommitted, is folded
        // again idempotently.
        await commits.send(() =>
          payload
            .commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: (BigInt(last.offset) + 1n).toString() }] }] })
            .then(() => {
              metrics.partitions.committed(partition, last.offset, lag);
              deps.onProgress?.({ partition, offset: last.offset, lag });
            }),
        );
        metrics.consumerLagMessages.set({ partition: String(partition) }, lag);
        metrics.batchDuration.observe((performance.now() - began) / 1000);
        metrics.batchSize.observe(chunk.length);
        await payload.heartbeat();
      }
    } finally {
      await commits.settled();
    }
  };
}

/**
 * kafkajs heartbeats only when asked: a chunk outlasting the session (a slow database) would get
 * the member evicted, its commit refused and the chunk folded again elsewhere. A failed
 * heartbeat (a rebalance) is left to isStale() and the commit to report.
 */
async function whileAlive<T>(work: () => Promise<T>, payload: EachBatchPayload, intervalMs: number): Promise<T> {
  const keepAlive = setInterval(() => void payload.heartbeat().catch(() => undefined), intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(keepAlive);
  }
}
