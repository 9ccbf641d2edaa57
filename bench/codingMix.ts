// bench/api.ts --parts throughput: the response cache's hit ratio and the bytes on the wire for
// clients with and without Accept-Encoding, over a set of URLs asked for in turn. A cache entry
// holds the plain bytes and their gzip and brotli codings beside them, so the hit ratio should not
// depend on the mix of codings while the bytes sent shrink with the share of clients that accept one.
import autocannon from 'autocannon';
import { parseLabels, parsePrometheusText } from '../projector/status/readProjectorStatus.ts';

export interface CodingMixOptions {
  /** The API's origin (`http://host:port`). */
  readonly origin: string;
  /** The API's operators' port origin, whose /metrics counts cache outcomes. */
  readonly opsOrigin: string;
  /** Request targets under /api/v1, asked for in turn by every connection. */
  readonly paths: readonly string[];
  readonly seconds: number;
  readonly connections: number;
  readonly log: (line: string) => void;
}

/** The codings of a mix's clients, in the order the requests cycle through them. */
const MIXES: ReadonlyArray<{ name: string; codings: readonly (string | undefined)[] }> = [
  { name: 'no Accept-Encoding', codings: [undefined] },
  { name: 'a third each: none, gzip, br', codings: [undefined, 'gzip', 'br'] },
  { name: 'all "gzip, deflate, br"', codings: ['gzip, deflate, br'] },
];

async function cacheOutcomes(opsOrigin: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${opsOrigin}/metrics`)).text();
  const outcomes: Record<string, number> = {};
  for (const sample of parsePrometheusText(text).get('api_cache_total') ?? []) {
    const outcome = parseLabels(sample.labels).outcome ?? '';
    outcomes[outcome] = (outcomes[outcome] ?? 0) + sample.value;
  }
  return outcomes;
}

export async function codingMix(options: CodingMixOptions): Promise<string[]> {
  const lines = [
    `cache hit ratio and bytes on the wire by the clients' Accept-Encoding (${options.paths.length} URLs in turn, ${options.connections} connections, ${options.seconds} s each):`,
    `  ${'clients'.padEnd(32)} ${'req/s'.padStart(8)} ${'hit ratio'.padStart(9)} ${'bytes/req'.padStart(10)} ${'MB/s'.padStart(7)}`,
  ];
  for (const mix of MIXES) {
    const requests = mix.codings.flatMap((coding) =>
      options.paths.map((path) => ({ path: `/api/v1${path}`, headers: coding === undefined ? {} : { 'Accept-Encoding': coding } })),
    );
    const before = await cacheOutcomes(options.opsOrigin);
    options.log(`coding mix: ${mix.name}: ${options.seconds} s, ${options.connections} connections`);
    const result = await autocannon({ url: options.origin, connections: options.connections, duration: options.seconds, requests });
    const after = await cacheOutcomes(options.opsOrigin);
    const delta = (outcome: string): number => (after[outcome] ?? 0) - (before[outcome] ?? 0);
    const hits = delta('HIT');
    const looked = hits + delta('MISS');
    const served = result.requests.total;
    lines.push(
      `  ${mix.name.padEnd(32)} ${Math.round(result.requests.average).toString().padStart(8)} ${(looked === 0 ? 0 : hits / looked).toFixed(4).padStart(9)} ` +
        `${Math.round(served === 0 ? 0 : result.throughput.total / served)
          .toString()
          .padStart(10)} ${(result.throughput.average / 1_048_576).toFixed(1).padStart(7)}`,
    );
  }
  return lines;
}
