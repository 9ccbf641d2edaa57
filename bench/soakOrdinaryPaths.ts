/**
 * The ordinary clients' fixed mix: listings of every resource with common filters and pages, and
 * the details of competitions and clubs the read model holds (read from the API once), the
 * calendar feed and the filter documents. A client of a calendar asks these again and again, so
 * most are served from the response cache, as in production.
 */
export async function ordinaryPaths(base: string): Promise<string[]> {
  const ids = async (path: string, field: 'id' | 'slug'): Promise<string[]> => {
    const res = await fetch(`${base}${path}`, { headers: { 'x-forwarded-for': '10.99.0.1' } });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    return body.data.map((item) => String(item[field]));
  };
  const competitions = [
    ...(await ids('/api/v1/competitions?period=upcoming&limit=10', 'slug')),
    ...(await ids('/api/v1/competitions?limit=10', 'slug')),
  ];
  const clubs = await ids('/api/v1/clubs?limit=15', 'id');
  if (competitions.length === 0 || clubs.length === 0) throw new Error('the seeded read model lists no competitions or no clubs');
  return [
    '/api/v1/competitions',
    '/api/v1/competitions?period=upcoming',
    '/api/v1/competitions?period=upcoming&page=2',
    '/api/v1/competitions?period=past&sort=startDate&order=desc',
    '/api/v1/competitions?status=open&include=entriesCount',
    '/api/v1/competitions?country=LV',
    '/api/v1/competitions?registrationOpen=true',
    '/api/v1/competitions.ics?period=upcoming',
    '/api/v1/filters',
    '/api/v1/dancers',
    '/api/v1/dancers?page=2',
    '/api/v1/dancers?country=LV',
    '/api/v1/coaches',
    '/api/v1/judges',
    '/api/v1/clubs',
    '/api/v1/clubs?page=2',
    '/api/v1/registry/filters',
    ...competitions.map((slug) => `/api/v1/competitions/${slug}`),
    ...competitions.slice(0, 5).map((slug) => `/api/v1/competitions/${slug}/categories`),
    ...clubs.map((id) => `/api/v1/clubs/${id}`),
    ...clubs.slice(0, 5).map((id) => `/api/v1/dancers?clubId=${id}`),
  ];
}
