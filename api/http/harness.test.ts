// Test support (not a test file: vitest runs only *.unit.test.ts): one HTTP request to a Koa
// app served in process on an ephemeral port, with full control over method and headers.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed JSON body the tests assert on
  json: any;
}

export interface TestRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
}

export async function send(app: Koa, req: TestRequest): Promise<TestResponse> {
  const handle = app.callback();
  const server = createServer((incoming, outgoing) => {
    void handle(incoming, outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<TestResponse>((resolve, reject) => {
      const outgoing = httpRequest(
        { host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.path, headers: req.headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = text === '' ? undefined : JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
