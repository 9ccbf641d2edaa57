import { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type Koa from 'koa';
import type { EarlyHit } from './earlyHit.ts';

/** Koa's idea of the client address of a request (`ctx.ip`, with the app's trusted proxies), without a context. */
export function requestIp(app: Koa, req: IncomingMessage): string {
  const request = Object.create(app.request) as { req: IncomingMessage; app: Koa; ip: string };
  request.req = req;
  request.app = app;
  return request.ip;
}

/**
 * Puts `early` in front of the app's request listener: every `app.callback()` (the server's, the
 * tests') first offers the request to it, and only what it leaves goes to Koa. A fault in it
 * before it wrote anything leaves the request to Koa as well; after, the connection is cut.
 */
export function answerHitsFirst(app: Koa, early: EarlyHit): void {
  const koaCallback = app.callback.bind(app);
  app.callback = () => {
    const handle = koaCallback();
    return (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): Promise<void> => {
      if (!(req instanceof IncomingMessage) || !(res instanceof ServerResponse)) return handle(req, res);
      const recover = (): Promise<void> => {
        if (!res.headersSent) return handle(req, res);
        res.destroy();
        return Promise.resolve();
      };
      let answered: boolean | Promise<boolean>;
      try {
        answered = early(req, res);
      } catch {
        return recover();
      }
      if (answered === true) return Promise.resolve();
      if (answered === false) return handle(req, res);
      return answered.then((done) => (done ? undefined : handle(req, res)), recover);
    };
  };
}
