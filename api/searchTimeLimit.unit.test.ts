import { describe, expect, it } from 'vitest';
import { ApiError } from './http/apiError.ts';
import { StreamedBody } from './http/streamedBody.ts';
import { searchTimeLimit } from './searchTimeLimit.ts';

/** What the driver throws when the server stopped an operation at its maxTimeMS. */
function maxTimeExpired(): Error {
  return Object.assign(new Error('operation exceeded time limit'), { name: 'MongoServerError', code: 50 });
}

async function thrownBy(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
}

describe('searchTimeLimit', () => {
  it('turns a time limit met while a body is made whole into the search’s 503 naming the limit', async () => {
    const error = await thrownBy(async () => searchTimeLimit(Promise.reject(maxTimeExpired()), 3000));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '5' } });
    expect((error as ApiError).message).toContain('3000 ms');
  });

  it('does the same for a body made piece by piece, after the pieces already read', async () => {
    async function* pieces(): AsyncGenerator<string> {
      yield await Promise.resolve('{"data":[');
      throw maxTimeExpired();
    }
    const body = searchTimeLimit(new StreamedBody('application/json', pieces()), 1500) as StreamedBody;
    const read: Array<string | Buffer> = [];
    const error = await thrownBy(async () => {
      for await (const piece of body.chunks) read.push(piece);
    });
    expect(read).toEqual(['{"data":[']);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect((error as ApiError).message).toContain('1500 ms');
  });

  it('leaves other errors and successful bodies as they are', async () => {
    const other = new Error('disk on fire');
    expect(await thrownBy(async () => searchTimeLimit(Promise.reject(other), 10))).toBe(other);
    expect(await searchTimeLimit(Promise.resolve({ data: [] }), 10)).toEqual({ data: [] });
    const plain = { data: [1] };
    expect(searchTimeLimit(plain, 10)).toBe(plain);
  });
});
