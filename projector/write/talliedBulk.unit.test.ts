import { MongoServerError, type AnyBulkWriteOperation, type Db, type Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { writeTallied } from './talliedBulk.ts';

type Stored = Document & { _id: string };

/**
 * A database of two collections whose transactions see and keep their own writes until commit,
 * and whose commit is refused, as a transaction past the server's lifetime is, when `refuse`
 * says so for the number of documents it wrote.
 */
function fakeDb(refuse: (documents: number) => boolean): {
  db: Db;
  stored: Map<string, Map<string, Stored>>;
  commits: number[];
  runs: () => number;
} {
  const stored = new Map<string, Map<string, Stored>>([
    ['docs', new Map()],
    ['tallies', new Map()],
  ]);
  const commits: number[] = [];
  let runs = 0;
  const client = {
    startSession() {
      let pending: Map<string, Map<string, Stored>> | null = null;
      let written = 0;
      return {
        startTransaction() {
          runs++;
          pending = new Map([...stored].map(([name, docs]) => [name, new Map(docs)]));
          written = 0;
        },
        inTransaction: () => pending !== null,
        abortTransaction() {
          pending = null;
          return Promise.resolve();
        },
        commitTransaction() {
          const done = pending!;
          pending = null;
          if (refuse(written)) {
            const error = new MongoServerError({ message: 'transaction exceeded its lifetime', code: 290 });
            error.addErrorLabel('TransientTransactionError');
            return Promise.reject(error);
          }
          for (const [name, docs] of done) stored.set(name, docs);
          commits.push(written);
          return Promise.resolve();
        },
        endSession: () => Promise.resolve(),
        view: (name: string) => pending!.get(name)!,
        wrote: (n: number) => void (written += n),
      };
    },
  };
  type Session = ReturnType<typeof client.startSession>;
  const db = {
    client,
    admin: () => ({ command: () => Promise.resolve({ transactionLifetimeLimitSeconds: 3 }) }),
    collection: (name: string) => ({
      find: (filter: { _id: { $in: string[] } }, { session }: { session: Session }) => ({
        toArray: () => Promise.resolve(filter._id.$in.flatMap((id) => session.view(name).get(id) ?? [])),
      }),
      bulkWrite(ops: AnyBulkWriteOperation<Stored>[], { session }: { session: Session }) {
        const docs = session.view(name);
        for (const op of ops) {
          if ('insertOne' in op) docs.set(op.insertOne.document._id, op.insertOne.document);
          else if ('replaceOne' in op) docs.set(String(op.replaceOne.replacement._id), op.replaceOne.replacement as Stored);
          else if ('updateOne' in op) {
            const id = op.updateOne.filter._id as string;
            const update = op.updateOne.update as { $inc: { n: number } };
            docs.set(id, { _id: id, n: Number(docs.get(id)?.n ?? 0) + update.$inc.n });
          }
        }
        if (name === 'docs') session.wrote(ops.length);
        return Promise.resolve({});
      },
    }),
  } as unknown as Db;
  return { db, stored, commits, runs: () => runs };
}

const replace = (id: string, v: number): AnyBulkWriteOperation<Stored> => ({
  replaceOne: {
    filter: { $and: [{ _id: id }, { 'stamp.v': { $lt: v } }] },
    replacement: { _id: id, visible: true, stamp: { v, at: 'now' } },
    upsert: true,
  },
});

const bulkOf = (db: Db) => ({ db, listing: 'competitions' as const, collection: 'docs', tallies: 'tallies', slot: 0, writeConcern: {} });

describe('writeTallied', () => {
  it('splits a transaction the server aborts for its age into smaller ones, and the tallies add up the same', async () => {
    const { db, stored, commits } = fakeDb((documents) => documents > 4);
    const ops = Array.from({ length: 16 }, (_, i) => replace(`c${i}`, 1));
    expect(await writeTallied(bulkOf(db), ops)).toEqual(new Set());
    expect(commits.every((n) => n <= 4)).toBe(true);
    expect(commits.reduce((a, b) => a + b, 0)).toBe(16);
    expect(stored.get('docs')!.size).toBe(16);
    const visible = [...stored.get('tallies')!.values()].filter((t) => t._id.includes('visible'));
    expect(visible.reduce((n, t) => n + Number(t.n), 0)).toBe(16);
  });

  it('gives up after a bounded number of runs when no split helps, instead of running the same transaction for ever', async () => {
    const { db, runs } = fakeDb(() => true);
    const ops = Array.from({ length: 64 }, (_, i) => replace(`c${i}`, 1));
    await expect(writeTallied(bulkOf(db), ops)).rejects.toMatchObject({ code: 290 });
    expect(runs()).toBeLessThanOrEqual(64);
  });
});
