import type { Db } from 'mongodb';
import { pino } from 'pino';
import { createApp } from '../../api/createApp.ts';
import { loadConfig } from '../../services/config/index.ts';
import { PUBLIC_URL, SITE_URL } from './apiHarness.ts';
import { listenOnFreePort, type Listening } from './listenOnFreePort.ts';

/**
 * The app in process on 127.0.0.1:<free port>, silent, its clock pinned at `now`, for a test
 * whose client is not the harness's request (a browser, a fuzzer, the typed client, raw fetch).
 * `env` may name the app's own origin, e.g. as API_PUBLIC_URL so links point back at it.
 */
export function startApiOnPort(db: Db, now: Date, env: (origin: string) => Record<string, string> = () => ({})): Promise<Listening> {
  return listenOnFreePort((origin) => {
    const config = loadConfig({ API_PUBLIC_URL: PUBLIC_URL, SITE_URL, RATE_LIMIT_MAX: '100000', ...env(origin) });
    const app = createApp({
      config,
      logger: pino({ level: 'silent' }),
      readiness: () => Promise.resolve({ ready: true, checks: {} }),
      db,
      clock: () => now.getTime(),
    });
    const callback = app.callback();
    return (req, res) => void callback(req, res);
  });
}
