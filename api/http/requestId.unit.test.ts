import { describe, expect, it } from 'vitest';
import Koa from 'koa';
import pino from 'pino';
import { Writable } from 'node:stream';
import { acceptedRequestId, requestId } from './requestId.ts';
import { loggerOf, requestIdOf } from './requestState.ts';
import { send } from './harness.test.ts';

describe('acceptedRequestId', () => {
  const generate = () => 'generated';

  it.each(['abc', 'A-Z_a.z:0-9', 'x'.repeat(64), '550e8400-e29b-41d4-a716-446655440000'])('echoes %s', (id) => {
    expect(acceptedRequestId(id, generate)).toBe(id);
  });

  it.each(['', 'x'.repeat(65), 'has space', 'semi;colon', 'ünï', 'a/b', 'line\nbreak'])('replaces %j', (id) => {
    expect(acceptedRequestId(id, generate)).toBe('generated');
  });

  it('generates a UUID by default', () => {
    expect(acceptedRequestId(undefined)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('requestId middleware', () => {
  it('sets X-Request-Id on the response and a child logger bound to it', async () => {
    const lines: string[] = [];
    const logger = pino(
      { base: null },
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          lines.push(chunk.toString());
          callback();
        },
      }),
    );
    const app = new Koa();
    app.use(requestId({ logger }));
    app.use((ctx) => {
      loggerOf(ctx)?.info('handled');
      ctx.body = { id: requestIdOf(ctx) };
    });

    const echoed = await send(app, { path: '/', headers: { 'X-Request-Id': 'trace.1' } });
    expect(echoed.headers['x-request-id']).toBe('trace.1');
    expect(echoed.json).toEqual({ id: 'trace.1' });
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ requestId: 'trace.1', msg: 'handled' });

    const replaced = await send(app, { path: '/', headers: { 'X-Request-Id': 'bad id!' } });
    expect(replaced.headers['x-request-id']).not.toBe('bad id!');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
