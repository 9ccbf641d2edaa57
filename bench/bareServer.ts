// The baseline of bench/api.ts: a bare node:http server answering every request with the same
// bytes and headers the API gave for GET /competitions (`body`, or `bodyBase64` for the bytes of a
// coded body, whose Content-Encoding is among `headers`).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [port, file] = process.argv.slice(2);
const sample = JSON.parse(readFileSync(file!, 'utf8')) as { body?: string; bodyBase64?: string; headers: Record<string, string> };
const bytes = sample.bodyBase64 === undefined ? Buffer.from(sample.body ?? '') : Buffer.from(sample.bodyBase64, 'base64');
createServer((_req, res) => {
  res.writeHead(200, { ...sample.headers, 'Content-Length': bytes.length });
  res.end(bytes);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
