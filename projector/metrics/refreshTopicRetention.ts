import type { Admin } from 'kafkajs';
import { readTopicRetention, type TopicRetention } from '../../services/kafka/index.ts';
import type { Logger } from '../../services/logger.ts';
import type { ProjectorMetrics } from './projectorMetrics.ts';

/** Sets the retention gauges from one reading of the topic. */
export function recordTopicRetention(metrics: ProjectorMetrics, retention: TopicRetention): void {
  metrics.eventsTopicKeepsEverything.set(retention.settingProblems.length === 0 ? 1 : 0);
  metrics.eventsTopicComplete.set(retention.droppedStarts.length === 0 ? 1 : 0);
}

/**
 * Keeps the retention gauges true while the projector runs: with a finite retention the broker
 * deletes the topic's start at some later hour, and an operator may change the settings at any
 * time. A reading is two small admin requests, so once a minute costs nothing.
 */
export function refreshTopicRetention(opts: {
  admin: Admin;
  topic: string;
  metrics: ProjectorMetrics;
  logger: Logger;
  everyMs?: number;
}): () => void {
  const timer = setInterval(() => {
    readTopicRetention(opts.admin, opts.topic).then(
      (retention) => recordTopicRetention(opts.metrics, retention),
      (error: unknown) => opts.logger.warn({ err: error }, 'could not read the retention of the events topic'),
    );
  }, opts.everyMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
