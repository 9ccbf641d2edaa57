import { loadavg } from 'node:os';
import type { Admin } from 'kafkajs';
import { countTopicMessages } from '../services/kafka/index.ts';
import { sampleRss } from '../test/adversarial/processRss.ts';
import { metricSum, spread, type Spread } from './soakFigures.ts';
import type { HostileMessage } from './soakHostileEvents.ts';
import { cpuSeconds, metricsPage, runJsonChild, statusOf, type Service } from './soakProcesses.ts';
import type { SoakStream, StreamFigures } from './soakStream.ts';

export interface OrdinaryFigures {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

export interface HostileFigures {
  statuses: Record<string, Record<string, number>>;
  skipped: number;
  slow: { opened: number; cut408: number; closedUnanswered: number; openAtEnd: number; other: number };
}

export interface HalfFigures {
  ordinary: OrdinaryFigures;
  hostile?: HostileFigures;
  stream: StreamFigures;
  apiRss: Spread;
  projectorRss: Spread;
  applied: number;
  deadLettered: number;
  dlqMessages: number;
  restarts: number;
  /** CPU seconds each process used in the half, and the projector's time inside batches (validate, fold, durable write). */
  cpu: { api: number; projector: number };
  batchSeconds: number;
  /** The machine's 1-minute load average, sampled every 5 s: other work on a shared machine moves every figure. */
  load: Spread;
  apiHeapMb: number;
  projectorHeapMb: number;
  ready: { api: number; projector: number };
}

/** What a half runs against: the soak's options, its processes, ports, stream and URLs. */
export interface HalfContext {
  o: {
    seconds: number;
    rps: number;
    eventRate: number;
    hostileRps: number;
    slowClients: number;
    hostileEventRate: number;
    log(line: string): void;
  };
  admin: Admin;
  stream: SoakStream;
  topic: string;
  /** The API's public origin. */
  base: string;
  /** The file of the ordinary clients' paths. */
  urls: string;
  hostileMessages: readonly HostileMessage[];
  api: Service;
  projector: Service;
  apiOps: number;
  projectorOps: number;
}

/**
 * One half: the ordinary clients and the ordinary stream for `seconds`, and with `hostile` the
 * hostile clients and the adversarial events beside them. The stream stops with the ordinary
 * clients; the half's figures are taken once every ordinary event sent is visible (or a minute
 * has passed) and the hostile clients have ended.
 */
export async function runHalf(ctx: HalfContext, hostile: boolean): Promise<HalfFigures> {
  const { o, admin, stream, topic, base } = ctx;
  o.log(`${hostile ? 'hostile' : 'ordinary'} half: ${o.seconds} s`);
  const metrics = async (): Promise<{ api: string; projector: string }> => ({
    api: await metricsPage(`http://127.0.0.1:${ctx.apiOps}/metrics`),
    projector: await metricsPage(`http://127.0.0.1:${ctx.projectorOps}/metrics`),
  });
  const before = await metrics();
  const dlqBefore = await countTopicMessages(admin, `${topic}.dlq`).catch(() => 0);
  const cpuBefore = { api: cpuSeconds(ctx.api.child.pid!), projector: cpuSeconds(ctx.projector.child.pid!) };
  const loads: number[] = [];
  const loadTimer = setInterval(() => loads.push(loadavg()[0]!), 5_000);
  const rss = { api: sampleRss(ctx.api.child.pid!, 1_000), projector: sampleRss(ctx.projector.child.pid!, 1_000) };
  stream.start(o.eventRate, hostile ? { rate: o.hostileEventRate, messages: ctx.hostileMessages } : undefined);
  const seconds = String(o.seconds);
  const hostileLoad = hostile
    ? runJsonChild<HostileFigures>('bench/soakHostileLoad.ts', [
        ...['--url', base, '--seconds', seconds],
        ...['--rps', String(o.hostileRps), '--slow-clients', String(o.slowClients)],
      ])
    : Promise.resolve(undefined);
  // Handled here, awaited below once the ordinary figures are in.
  hostileLoad.catch(() => undefined);
  const ordinary = await runJsonChild<OrdinaryFigures>('bench/soakOrdinaryLoad.ts', [
    ...['--url', base, '--urls', ctx.urls],
    ...['--seconds', seconds, '--rps', String(o.rps)],
  ]);
  const streamFigures = await stream.finish(60_000);
  const hostileFigures = await hostileLoad;
  rss.api.stop();
  rss.projector.stop();
  clearInterval(loadTimer);
  const cpu = {
    api: cpuSeconds(ctx.api.child.pid!) - cpuBefore.api,
    projector: cpuSeconds(ctx.projector.child.pid!) - cpuBefore.projector,
  };
  const after = await metrics();
  const delta = (name: string): number => metricSum(after.projector, name) - metricSum(before.projector, name);
  return {
    ordinary,
    ...(hostileFigures ? { hostile: hostileFigures } : {}),
    stream: streamFigures,
    apiRss: spread(rss.api.series()),
    projectorRss: spread(rss.projector.series()),
    applied: delta('projector_events_applied_total'),
    deadLettered: delta('projector_events_dead_lettered_total'),
    dlqMessages: (await countTopicMessages(admin, `${topic}.dlq`).catch(() => 0)) - dlqBefore,
    restarts: delta('projector_consumer_restarts_total'),
    cpu,
    batchSeconds: delta('projector_batch_duration_seconds_sum'),
    load: spread(loads),
    apiHeapMb: metricSum(after.api, 'nodejs_heap_size_used_bytes') / 2 ** 20,
    projectorHeapMb: metricSum(after.projector, 'nodejs_heap_size_used_bytes') / 2 ** 20,
    ready: { api: await statusOf(`${base}/health/ready`), projector: await statusOf(`http://127.0.0.1:${ctx.projectorOps}/health/ready`) },
  };
}
