/**
 * The response-cache key: the path plus the query string with its parameters sorted by name
 * (stable, so equal names keep their order) and re-encoded in one canonical form.
 */
export function canonicalQueryKey(path: string, rawQuery: string | URLSearchParams): string {
  const params = new URLSearchParams(rawQuery);
  params.sort();
  const query = params.toString();
  return query === '' ? path : `${path}?${query}`;
}
