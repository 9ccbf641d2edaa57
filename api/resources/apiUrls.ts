import type { Config } from '../../services/config/index.ts';

/** Query values as the parsed query holds them (defaults filled in). */
export type QueryValues = Readonly<Record<string, unknown>>;

export interface ApiUrls {
  /** Absolute API URL: public origin + base path + path (+ canonical query). */
  api(path: string, query?: QueryValues): string;
  /** Absolute URL on the public web site. */
  site(path: string): string;
}

/**
 * Absolute links are built from configuration only, never from request headers: a cached body
 * is served to every caller, so a spoofed Host must not end up in it.
 */
export function apiUrls(config: Readonly<Config>): ApiUrls {
  const apiBase = `${config.api.publicUrl}${config.api.basePath}`;
  return {
    api: (path, query) => {
      const search = query === undefined ? '' : canonicalQueryString(query);
      return search === '' ? `${apiBase}${path}` : `${apiBase}${path}?${search}`;
    },
    site: (path) => `${config.api.siteUrl}${path}`,
  };
}

/**
 * The canonical form of a parsed query: parameters sorted by name, defaults written out, lists
 * joined by commas (kept readable: `,` needs no escape in a query), everything else encoded.
 */
export function canonicalQueryString(query: QueryValues): string {
  return Object.keys(query)
    .filter((name) => query[name] !== undefined)
    .sort()
    .map((name) => `${encodeURIComponent(name)}=${encodeValue(query[name])}`)
    .join('&');
}

function encodeValue(value: unknown): string {
  const text = Array.isArray(value) ? value.map(String).join(',') : String(value);
  return encodeURIComponent(text).replaceAll('%2C', ',');
}

/** A path segment of a link (a slug may hold anything). */
export const segment = (value: string): string => encodeURIComponent(value);
