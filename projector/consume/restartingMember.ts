import type { Consumer, ConsumerConfig, EachBatchHandler, Kafka } from 'kafkajs';
import type { Logger } from '../../services/logger.ts';
import type { ProjectorMetrics } from '../metrics/projectorMetrics.ts';
import { restartBackoff } from './restartBackoff.ts';

export interface MemberDeps {
  kafka: Kafka;
  topic: string;
  config: ConsumerConfig;
  eachBatch: EachBatchHandler;
  partitionsConsumedConcurrently?: number;
  metrics: ProjectorMetrics;
  logger: Logger;
}

/**
 * The projector's place in the consumer group, kept across crashes: kafkajs cannot run a consumer
 * again once it has crashed for good, so a new member takes its place, with backoff, until stop().
 */
export class RestartingMember {
  private readonly deps: MemberDeps;
  private readonly restarts = restartBackoff();
  private running = false;
  private current: Consumer | null = null;
  private stopping = false;
  /**
   * When the member stopped, on the monotonic clock: a duration for readiness, not a domain time,
   * so neither the projection's injected clock (pinned in tests) nor a wall clock that steps.
   */
  private stoppedAt: number | null = null;
  private pending: NodeJS.Timeout | null = null;

  constructor(deps: MemberDeps) {
    this.deps = deps;
  }

  isRunning(): boolean {
    return this.running;
  }

  /** Milliseconds since the member stopped other than by stop() (null while it runs or rejoins). */
  stoppedForMs(): number | null {
    return this.stoppedAt === null ? null : performance.now() - this.stoppedAt;
  }

  /** Joins the group with a new member and runs it. */
  async start(): Promise<void> {
    const { kafka, topic, config, eachBatch } = this.deps;
    const consumer: Consumer = kafka.consumer({ ...config });
    this.current = consumer;
    this.watch(consumer);
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.deps.partitionsConsumedConcurrently ?? 1,
      eachBatch,
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.setRunning(false);
    if (this.pending) clearTimeout(this.pending);
    await this.current?.disconnect();
  }

  private watch(consumer: Consumer): void {
    const { metrics, logger, topic } = this.deps;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!this.stopping) {
        this.setRunning(false);
        this.stoppedAt ??= performance.now();
      }
      logger.error({ err: payload.error, restart: payload.restart }, 'consumer crashed');
      // With `restart` kafkajs starts the member again itself; without it the member stays stopped.
      if (!payload.restart && !this.stopping && this.current === consumer) this.restartLater(consumer);
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      if (this.stopping) return;
      this.setRunning(true);
      this.stoppedAt = null;
      this.restarts.succeeded();
      const assigned = new Set(payload.memberAssignment[topic] ?? []);
      metrics.unapplied.keepOnly(assigned);
      metrics.partitions.keepOnly(assigned);
    });
    consumer.on(consumer.events.STOP, () => {
      if (this.stopping) return;
      this.setRunning(false);
      this.stoppedAt ??= performance.now();
    });
  }

  private restartLater(stopped: Consumer): void {
    const delay = this.restarts.next();
    this.deps.logger.warn({ inMs: delay }, 'restarting the stopped consumer');
    this.pending = setTimeout(() => {
      this.pending = null;
      if (this.stopping) return;
      this.deps.metrics.consumerRestarts.inc();
      void stopped
        .disconnect()
        .catch(() => undefined)
        .then(() => this.start())
        .catch((error: unknown) => {
          this.deps.logger.error({ err: error }, 'could not restart the consumer');
          if (!this.stopping && this.current !== null) this.restartLater(this.current);
        });
    }, delay);
  }

  /**
   * The gauge is shared by every member of the process (a rebuild's replay, then the live one):
   * after stop() this member is done with it, and kafkajs may report its STOP only after the next
   * member has joined, so its events no longer touch the gauge.
   */
  private setRunning(value: boolean): void {
    this.running = value;
    this.deps.metrics.consumerRunning.set(value ? 1 : 0);
  }
}
