// The baseline of bench/api.ts: a bare node:http server answering every request with the same
// bytes and headers the API gave for GET /competitions.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [port, file] = process.argv.slice(2);
const { body, headers } = JSON.parse(readFileSync(file!, 'utf8')) as { body: string; headers: Record<string, string> };
const bytes = Buffer.from(body);
createServer((_req, res) => {
  res.writeHead(200, { ...headers, 'Content-Length': bytes.length });
  res.end(bytes);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
