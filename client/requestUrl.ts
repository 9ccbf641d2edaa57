type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | null | undefined;

/**
 * The URL of a path under `baseUrl`: `{name}` filled from `pathParams` (encoded), and the query
 * in the order given, undefined values left out. A list goes out as one comma list
 * (`status=open,completed`), as the API reads it: a repeated parameter answers 400.
 */
export function requestUrl(baseUrl: string, path: string, pathParams: object = {}, query: object = {}): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = (pathParams as Record<string, string | number | undefined>)[name];
    if (value === undefined || value === null) throw new TypeError(`missing path parameter ${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
  const pairs = Object.entries(query as Record<string, QueryValue>).flatMap(([name, value]) => {
    if (value === undefined || value === null) return [];
    const items = Array.isArray(value) ? (value as readonly (string | number | boolean)[]) : [value as string | number | boolean];
    return [`${encodeURIComponent(name)}=${items.map((item) => encodeURIComponent(String(item))).join(',')}`];
  });
  return `${baseUrl.replace(/\/+$/, '')}${filled}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`;
}
