import { MongoClient, type Db } from 'mongodb';
import type { Registry } from 'prom-client';
import { observeCommandDurations } from './observeCommandDurations.ts';

export interface MongoConnection {
  client: MongoClient;
  db: Db;
  /** True when the server answers a ping within PING_TIMEOUT_MS. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface ConnectMongoOptions {
  /**
   * Longest wait for any one reply on an open connection (the driver's socketTimeoutMS); none
   * when absent. maxTimeMS only bounds a server that still runs: a paused or partitioned one
   * never answers, and without this an operation (and the request behind it) waits forever.
   * Set it above the longest operation expected (the API: its query time limit plus a margin);
   * the projector leaves it unset, as its index builds may run for minutes on one reply.
   * Finding the server and opening a connection are then bounded by it too (at most the
   * default 5 s), so a request against an unanswering database ends within a few times it.
   */
  socketTimeoutMs?: number;
  /** Where the latency of every database command is recorded (mongodb_command_duration_seconds); none when absent. */
  metrics?: Registry;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/** How long a readiness ping may take before the database counts as away. */
export const PING_TIMEOUT_MS = 2000;

/** Connects and proves the server answers before returning, so start-up fails loudly. */
export async function connectMongo(url: string, dbName: string, options: ConnectMongoOptions = {}): Promise<MongoConnection> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: Math.min(DEFAULT_CONNECT_TIMEOUT_MS, options.socketTimeoutMs ?? Infinity),
    connectTimeoutMS: Math.min(DEFAULT_CONNECT_TIMEOUT_MS, options.socketTimeoutMs ?? Infinity),
    appName: 'federation-read',
    ...(options.socketTimeoutMs === undefined ? {} : { socketTimeoutMS: options.socketTimeoutMs }),
    monitorCommands: options.metrics !== undefined,
  });
  if (options.metrics) observeCommandDurations(client, options.metrics);
  await client.connect();
  const db = client.db(dbName);
  const ping = async (): Promise<boolean> => {
    // The driver's timeoutMS is inert in this version (it warns so): a ping sent on a pooled
    // connection to a paused server would wait forever, so the bound is ours.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    });
    const answer = db.command({ ping: 1 }).then(
      (reply) => reply.ok === 1,
      () => false,
    );
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  if (!(await ping())) throw new Error(`MongoDB at ${url} does not answer a ping`);
  return { client, db, ping, close: () => client.close() };
}
