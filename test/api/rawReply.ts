import { request as httpRequest } from 'node:http';

// One request with node:http, which keeps the response's header lines in their order and its
// body as the bytes on the wire (fetch would merge headers and decode a coded body): what the
// tests of the cache hit compare between a miss, a hit and a hit further down the pipeline.

export interface RawReply {
  status: number;
  /** Header lines in the order they were sent, names lower-cased. */
  headers: Array<[string, string]>;
  body: Buffer;
}

export function rawRequest(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawReply> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: `/api/v1${path}`, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const lines: Array<[string, string]> = [];
        for (let i = 0; i < raw.length; i += 2) lines.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export const header = (reply: RawReply, name: string): string | undefined => reply.headers.find(([n]) => n === name)?.[1];

/** What legitimately differs between two answers of one resource: the budget left, the age, the clock. */
const VARYING = new Set(['x-ratelimit-remaining', 'ratelimit', 'age', 'x-cache', 'date']);
export const stableHeaders = (reply: RawReply): Array<[string, string]> => reply.headers.filter(([name]) => !VARYING.has(name));
