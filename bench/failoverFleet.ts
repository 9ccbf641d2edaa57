import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import type { Admin } from 'kafkajs';
import { PROJECTOR_MEMORY_FLAGS } from '../projector/memoryBound.ts';
import { liveGroupId } from '../projector/consume/liveGroupId.ts';
import { assignments } from '../test/faults/support/groupState.ts';
import { freePort } from '../test/faults/support/freePort.ts';

export interface ProjectorProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Where a fleet's projectors read from and write to, and the environment they share. */
export interface FleetTarget {
  env: NodeJS.ProcessEnv;
  topic: string;
  groupId: string;
  db: string;
  /** Each projector's log file goes here. */
  logDir: string;
}

/**
 * Projector processes launched as `npm start` launches one (projector/main.ts with the memory
 * flags, configured by environment only), on the bench's own topic, group and database.
 */
export class Fleet {
  readonly running: ProjectorProcess[] = [];
  private launched = 0;
  private readonly target: FleetTarget;

  constructor(target: FleetTarget) {
    this.target = target;
  }

  /** The consumer group of the live generation: a fresh database starts at generation 1. */
  get liveGroup(): string {
    return liveGroupId(this.target.groupId, 1);
  }

  async launch(): Promise<ProjectorProcess> {
    const name = `p${(this.launched += 1)}`;
    const log = openSync(join(this.target.logDir, `${name}.log`), 'a');
    const env = {
      ...this.target.env,
      KAFKA_TOPIC: this.target.topic,
      KAFKA_GROUP_ID: this.target.groupId,
      MONGO_DB: this.target.db,
      PROJECTOR_OPS_PORT: String(await freePort()),
    };
    const child = spawn(process.execPath, [...PROJECTOR_MEMORY_FLAGS, 'projector/main.ts'], { env, stdio: ['ignore', log, log] });
    closeSync(log);
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    const projector = { name, child, exited };
    this.running.push(projector);
    void exited.then(() => this.running.splice(this.running.indexOf(projector), 1));
    return projector;
  }

  /**
   * Resolves once the group is stable with `members` members that each hold a partition, or
   * rejects after `capMs`.
   */
  async awaitMembers(admin: Admin, members: number, capMs: number): Promise<void> {
    const deadline = performance.now() + capMs;
    for (;;) {
      const held = await assignments(admin, this.liveGroup, this.target.topic).catch(() => []);
      if (held.length === members && held.every((p) => p.length > 0)) return;
      if (performance.now() > deadline) throw new Error(`the group had no ${members} stable members within ${capMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGTERM to every projector still running, SIGKILL after 25 s (past their own grace). */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.running].map(async (p) => {
        p.child.kill('SIGCONT');
        p.child.kill('SIGTERM');
        const timer = setTimeout(() => p.child.kill('SIGKILL'), 25_000);
        await p.exited;
        clearTimeout(timer);
      }),
    );
  }
}
