import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { apiState } from './requestState.ts';

const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

export interface RequestIdOptions {
  /** The base logger; each request gets a child bound to `requestId`. */
  readonly logger?: Logger;
  readonly generate?: () => string;
}

/** Echoes a well-formed caller `X-Request-Id`, otherwise generates one; set on every response. */
export function acceptedRequestId(given: string | undefined, generate: () => string = randomUUID): string {
  return given !== undefined && ACCEPTED_REQUEST_ID.test(given) ? given : generate();
}

export function requestId(options: RequestIdOptions = {}): Middleware {
  const generate = options.generate ?? randomUUID;
  return async function assignRequestId(ctx, next) {
    const header = ctx.get('X-Request-Id');
    const id = acceptedRequestId(header === '' ? undefined : header, generate);
    const state = apiState(ctx);
    state.requestId = id;
    if (options.logger) state.baseLogger = options.logger;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
