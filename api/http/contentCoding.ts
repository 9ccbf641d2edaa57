import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import type { Transform } from 'node:stream';

/** The content codings the API sends besides identity, in its order of preference. */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/**
 * Bodies smaller than this are sent as they are: compressing them saves a few hundred bytes at
 * most and costs a variant in the cache and a Vary header.
 */
export const COMPRESS_MIN_BYTES = 1024;

/** Parsed Accept-Encoding values: clients send few distinct ones, so each is parsed once. */
const PREFERRED = new Map<string, ContentCoding | null>();
const PREFERRED_MAX = 256;

/**
 * The coding to send for an `Accept-Encoding` header (RFC 9110 §12.5.3): the accepted coding with
 * the highest weight, brotli before gzip on a tie; none (identity) when neither is accepted.
 * `*` stands for any coding the header does not name; `x-gzip` is gzip.
 */
export function preferredCoding(acceptEncoding: string | undefined): ContentCoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return undefined;
  let chosen = PREFERRED.get(acceptEncoding);
  if (chosen === undefined) {
    chosen = parsePreference(acceptEncoding);
    if (PREFERRED.size >= PREFERRED_MAX) PREFERRED.clear();
    PREFERRED.set(acceptEncoding, chosen);
  }
  return chosen ?? undefined;
}

function parsePreference(header: string): ContentCoding | null {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let q = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() === 'q') q = Number(value.trim());
    }
    if (!Number.isFinite(q) || q < 0 || q > 1) continue;
    weights.set(coding === 'x-gzip' ? 'gzip' : coding, q);
  }
  const star = weights.get('*') ?? 0;
  let best: ContentCoding | null = null;
  let bestQ = 0;
  for (const coding of CONTENT_CODINGS) {
    const q = weights.get(coding) ?? star;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/** Brotli's quality for bodies compressed once and kept: a stored body is sent many times. */
const STORED_BROTLI_QUALITY = 6;
/** Brotli's quality for a body compressed as it streams: its cost is paid on every request. */
const STREAMED_BROTLI_QUALITY = 4;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

const brotliOptions = (quality: number, size?: number): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    ...(size === undefined ? {} : { [constants.BROTLI_PARAM_SIZE_HINT]: size }),
  },
});
const GZIP_OPTIONS: ZlibOptions = { level: 6 };

/** `body` compressed with `coding`, off the event loop (zlib's thread pool). */
export function encodeBody(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  return coding === 'br' ? brotli(body, brotliOptions(STORED_BROTLI_QUALITY, body.length)) : gzipped(body, GZIP_OPTIONS);
}

/** Every coding of `body`, for a cache entry; none when the body is too small to gain from it. */
export async function encodeAll(body: Buffer): Promise<Partial<Record<ContentCoding, Buffer>> | undefined> {
  if (body.length < COMPRESS_MIN_BYTES) return undefined;
  const [br, gzip] = await Promise.all(CONTENT_CODINGS.map((coding) => encodeBody(body, coding)));
  return { br: br!, gzip: gzip! };
}

/** A compressing stream for a body sent as it is made. */
export function encoderStream(coding: ContentCoding): Transform {
  return coding === 'br' ? createBrotliCompress(brotliOptions(STREAMED_BROTLI_QUALITY)) : createGzip(GZIP_OPTIONS);
}
