import kafkajs from 'kafkajs';
import {
  BSON,
  MongoBulkWriteError,
  MongoInvalidArgumentError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
  type BulkWriteResult,
  type WriteError,
} from 'mongodb';
import { describe, expect, it } from 'vitest';
import { DocumentOverBudget } from '../../services/readModel/documentBudgets.ts';
import { CONTENT_ERROR_CODES, isContentError } from './isContentError.ts';
import { isInfrastructureError } from './isInfrastructureError.ts';

const serverError = (code: number, labels: string[] = []): MongoServerError =>
  new MongoServerError({ message: `server error ${code}`, code, errorLabels: labels });

const bulkError = (...codes: number[]): MongoBulkWriteError =>
  new MongoBulkWriteError(
    {
      message: 'write errors',
      code: codes[0] ?? 0,
      writeErrors: codes.map((code, index) => ({ code, index, errmsg: `write error ${code}` })) as unknown as WriteError[],
    },
    {} as BulkWriteResult,
  );

describe('isInfrastructureError', () => {
  it('retries what says the database or the broker is not available now', () => {
    const retried = [
      new MongoNetworkError('connection reset'),
      new MongoNetworkTimeoutError('timed out'),
      new MongoServerSelectionError('no primary', { type: 'Unknown', servers: new Map() } as never),
      new MongoWriteConcernError({ writeConcernError: { errmsg: 'waiting for replication timed out', code: 64 } } as never),
      serverError(112, ['TransientTransactionError']),
      serverError(91, ['RetryableWriteError']),
      serverError(50),
      serverError(2),
      bulkError(11000, 11000),
      new MongoInvalidArgumentError('Argument "ordered" must be a boolean'),
      new kafkajs.KafkaJSError('broker not available'),
    ];
    for (const error of retried) expect([error.name, isInfrastructureError(error)]).toEqual([error.name, true]);
  });

  it("dead-letters what the database refuses for a document's content, like a fold's own error", () => {
    const dead = [
      new DocumentOverBudget('state', 'competition_states', 'c1', 5_000_000, 4_194_304),
      new BSON.BSONError('Cannot serialize a circular structure'),
      new MongoInvalidArgumentError('Document is larger than the maximum size 16777216'),
      ...[...CONTENT_ERROR_CODES.keys()].map((code) => serverError(code)),
      bulkError(11000, 10334),
      bulkError(2),
      bulkError(52),
      new TypeError('cannot read properties of undefined'),
      new RangeError('Maximum call stack size exceeded'),
    ];
    for (const error of dead) expect([error.message, isInfrastructureError(error)]).toEqual([error.message, false]);
  });

  it('names content errors only where the document itself is refused', () => {
    expect(isContentError(serverError(10334))).toBe(true);
    expect(isContentError(bulkError(57))).toBe(true);
    expect(isContentError(serverError(2))).toBe(false);
    expect(isContentError(bulkError(11000))).toBe(false);
    expect(isContentError(new MongoNetworkError('down'))).toBe(false);
    expect(isContentError(new Error('Document is larger than the maximum size'))).toBe(false);
  });
});
