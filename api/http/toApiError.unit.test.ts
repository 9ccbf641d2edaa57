import { describe, expect, it } from 'vitest';
import Koa from 'koa';
import { ApiError, ERROR_CODES, ERROR_STATUS } from './apiError.ts';
import { toApiError } from './toApiError.ts';
import { errorMiddleware } from './errorMiddleware.ts';
import { requestId } from './requestId.ts';
import { send } from './harness.test.ts';

function namedError(name: string, message = 'connect ECONNREFUSED 10.0.0.5:27017 user=reader'): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

describe('ApiError', () => {
  it('carries the stable status of every code', () => {
    expect(ERROR_STATUS).toEqual({
      INVALID_REQUEST: 400,
      NOT_FOUND: 404,
      CURSOR_EXPIRED: 410,
      METHOD_NOT_ALLOWED: 405,
      URI_TOO_LONG: 414,
      RATE_LIMIT_EXCEEDED: 429,
      INTERNAL_ERROR: 500,
      SERVICE_UNAVAILABLE: 503,
    });
    for (const code of ERROR_CODES) expect(new ApiError(code, 'x').status).toBe(ERROR_STATUS[code]);
  });
});

describe('toApiError', () => {
  it('keeps an ApiError as it is', () => {
    const error = new ApiError('NOT_FOUND', 'No such competition.');
    expect(toApiError(error, { requestId: 'r1' })).toBe(error);
  });

  it.each([
    'MongoServerSelectionError',
    'MongoNetworkError',
    'MongoNetworkTimeoutError',
    'MongoNotConnectedError',
    'MongoTopologyClosedError',
  ])('maps %s to 503 with Retry-After and no driver message', (name) => {
    const error = toApiError(namedError(name), { requestId: 'r1', retryAfterSeconds: 7 });
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.headers).toEqual({ 'Retry-After': '7' });
    expect(error.message).not.toContain('ECONNREFUSED');
  });

  it('finds a connectivity error wrapped as cause', () => {
    const wrapped = new Error('query failed', { cause: namedError('MongoNetworkError') });
    expect(toApiError(wrapped, { requestId: 'r1' }).code).toBe('SERVICE_UNAVAILABLE');
  });

  it.each([
    [91, 'ShutdownInProgress'],
    [11600, 'InterruptedAtShutdown'],
    [10107, 'NotWritablePrimary'],
    [189, 'PrimarySteppedDown'],
  ])('maps a server answering code %i (%s) to 503 with Retry-After', (code, codeName) => {
    const error = toApiError(Object.assign(namedError('MongoServerError', `${codeName}: interrupted`), { code, codeName }), {
      requestId: 'r1',
    });
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.headers).toEqual({ 'Retry-After': '5' });
    expect(error.message).not.toContain(codeName);
  });

  it('maps a query stopped at its time limit (MaxTimeMSExpired) to 503 with Retry-After', () => {
    const expired = Object.assign(namedError('MongoServerError', 'operation exceeded time limit'), { code: 50 });
    const error = toApiError(expired, { requestId: 'r1' });
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.headers).toEqual({ 'Retry-After': '5' });
    expect(toApiError(Object.assign(namedError('MongoServerError', 'other'), { code: 2 }), { requestId: 'r1' }).code).toBe(
      'INTERNAL_ERROR',
    );
  });

  it('maps other driver errors and anything else to 500 naming only the request id', () => {
    for (const thrown of [namedError('MongoServerError', 'E11000 duplicate key'), new TypeError('x is undefined'), 'a string', null]) {
      const error = toApiError(thrown, { requestId: 'req-42' });
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.message).toBe('Internal error (request id req-42).');
    }
  });

  it('maps http-errors statuses (ctx.throw) to the closest code', () => {
    expect(toApiError(Object.assign(new Error('x'), { status: 404 }), { requestId: 'r' }).code).toBe('NOT_FOUND');
    expect(toApiError(Object.assign(new Error('x'), { status: 405 }), { requestId: 'r' }).headers).toEqual({ Allow: 'GET, HEAD' });
    expect(toApiError(Object.assign(new Error('x'), { status: 413 }), { requestId: 'r' }).code).toBe('INVALID_REQUEST');
  });
});

describe('errorMiddleware (in process)', () => {
  function appThrowing(thrown: unknown): Koa {
    const app = new Koa();
    app.silent = true;
    app.use(requestId());
    app.use(async (ctx, next) => {
      ctx.set('Cache-Control', 'public, max-age=60');
      await next();
    });
    app.use(errorMiddleware());
    app.use(() => {
      throw thrown;
    });
    return app;
  }

  it('writes the envelope of an ApiError with its details and headers', async () => {
    const res = await send(appThrowing(new ApiError('INVALID_REQUEST', 'Bad query.', { details: ['page: x'] })), { path: '/' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json).toEqual({ error: { type: 'INVALID_REQUEST', message: 'Bad query.', details: ['page: x'] } });
  });

  it('answers 500 with the request id in the message and no stack or internals', async () => {
    const res = await send(appThrowing(new Error('secret: mongodb://admin:pw@db')), { path: '/', headers: { 'X-Request-Id': 'abc-123' } });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ error: { type: 'INTERNAL_ERROR', message: 'Internal error (request id abc-123).', details: [] } });
    expect(res.text).not.toMatch(/secret|mongodb|at .*\.ts/);
  });

  it('answers 503 with Retry-After when the database is unreachable', async () => {
    const res = await send(appThrowing(namedError('MongoServerSelectionError')), { path: '/' });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json.error.type).toBe('SERVICE_UNAVAILABLE');
    expect(res.text).not.toContain('ECONNREFUSED');
  });

  it('turns a request nothing answered into the NOT_FOUND envelope', async () => {
    const app = new Koa();
    app.use(errorMiddleware());
    app.use(async (_ctx, next) => {
      await next();
    });
    const res = await send(app, { path: '/nothing-here' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: { type: 'NOT_FOUND', message: 'No resource at this path.', details: [] } });
  });

  it('answers HEAD errors with the status and no body', async () => {
    const res = await send(appThrowing(new ApiError('NOT_FOUND', 'No.')), { method: 'HEAD', path: '/' });
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
  });
});
