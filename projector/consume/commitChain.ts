/**
 * Offset commits in order, each sent only after its chunk's writes are durable, without holding
 * the next chunk for a round trip: a chunk's commit travels while the next one is folded, since
 * waiting for each commit slowed even a replay that only validated (measured: docs/performance.md,
 * The projector's writes).
 */
export class CommitChain {
  private last: Promise<void> = Promise.resolve();

  /**
   * Waits for the previous commit (so a refused commit stops the batch before the next one is
   * sent), then sends this one without waiting for it.
   */
  async send(commit: () => Promise<void>): Promise<void> {
    await this.last;
    this.last = commit();
    // Observed by the next send or by settled(); this only keeps a failure from counting as unhandled.
    this.last.catch(() => undefined);
  }

  /** Resolves when the last commit sent has landed; rejects if it was refused. */
  settled(): Promise<void> {
    return this.last;
  }
}
