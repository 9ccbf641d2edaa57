import { MongoBulkWriteError, type BulkWriteResult, MongoNetworkError, MongoServerError, type WriteConcernError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { lostGuards } from './lostGuards.ts';

// Errors built the way driver 7 builds them in bulk/common.js (executeCommands, handleWriteError);
// of the result, lostGuards reads only the write-concern error.
const bulkResult = (concern?: WriteConcernError): BulkWriteResult =>
  ({ getWriteConcernError: () => concern }) as unknown as BulkWriteResult;
const writeError = (index: number, code: number) => ({
  index,
  code,
  errmsg: code === 11000 ? 'E11000 duplicate key' : 'failed',
  errInfo: undefined,
  op: {},
});

describe('lostGuards: which refusals of a bulk write are only guards that lost', () => {
  it('gives the indexes when every write error is a duplicate key', () => {
    const errors = [writeError(1, 11000), writeError(4, 11000)];
    const error = new MongoBulkWriteError({ message: 'E11000', code: 11000, writeErrors: errors as never }, bulkResult());
    expect(lostGuards(error)).toEqual(new Set([1, 4]));
  });

  it('is null for a connection closed mid-bulk, which the driver reports as a bulk error with no write errors', () => {
    const error = new MongoBulkWriteError(new MongoNetworkError('connection 1 to 127.0.0.1:27017 closed'), bulkResult());
    expect(error.writeErrors).toHaveLength(0);
    expect(lostGuards(error)).toBeNull();
  });

  it('is null when any write error is something else, or a write concern failed beside the duplicates', () => {
    const mixed = [writeError(0, 11000), writeError(2, 121)];
    expect(lostGuards(new MongoBulkWriteError({ message: 'x', code: 11000, writeErrors: mixed as never }, bulkResult()))).toBeNull();
    const duplicates = [writeError(0, 11000)];
    const concern = { code: 64, errmsg: 'waiting for replication timed out' } as unknown as WriteConcernError;
    const error = new MongoBulkWriteError({ message: 'E11000', code: 11000, writeErrors: duplicates as never }, bulkResult(concern));
    expect(lostGuards(error)).toBeNull();
  });

  it('is null for errors that are not bulk errors', () => {
    expect(lostGuards(new MongoServerError({ message: 'E11000', code: 11000 }))).toBeNull();
    expect(lostGuards(new Error('boom'))).toBeNull();
  });
});
