// What a consumer of the client package writes: the latest competitions in a country, one of them in
// full, every one of them page after page, a second read answered from the ETag cache, and a
// refused request's typed error.
//   node example.ts [baseUrl] [country] [pageSize]    (http://127.0.0.1:8080/api/v1, LV and 100 by default)
// Installed, the compiled copy runs: node node_modules/federation-read-client/dist/example.js <baseUrl>
import { FederationApiError, createFederationClient } from 'federation-read-client';

const [baseUrl = 'http://127.0.0.1:8080/api/v1', country = 'LV', pageSize = '100'] = process.argv.slice(2);
const api = createFederationClient(baseUrl, { etagCache: true, userAgent: 'federation-example/1' });

// request() resolves to the body, typed from the OpenAPI document.
const latest = await api.request('/competitions', { params: { query: { country, sort: 'startDate', order: 'desc', limit: 5 } } });
console.log(`${latest.meta.total} competitions in ${country}; the latest ${latest.data.length}:`);
for (const c of latest.data)
  console.log(`  ${c.dates.start}  ${c.name} (${c.location.label ?? 'no venue'}), registration ${c.registration.state}`);

const first = latest.data[0];
if (first) {
  // A detail by slug, with its categories.
  const detail = await api.request('/competitions/{idOrSlug}', { params: { path: { idOrSlug: first.slug } } });
  const categories = detail.data.categories ?? [];
  console.log(`${first.slug}: ${categories.length} categories (${categories.map((c) => c.name).join(', ')})`);
}

// items() follows links.next from page to page.
const names: string[] = [];
for await (const c of api.items('/competitions', { params: { query: { sort: 'name', limit: Number(pageSize) } } })) names.push(c.name);
console.log(`every published competition by name, ${pageSize} a page: ${names.length}, from ${names[0]} to ${names.at(-1)}`);

// The same request again: the client sends the ETag it kept, and the API's 304 is answered from it.
const again = await api.GET('/competitions', { params: { query: { country, sort: 'startDate', order: 'desc', limit: 5 } } });
console.log(`again: ${again.response.status}, from the ETag cache: ${again.fromCache}, ${again.data?.data.length ?? 0} competitions`);

// The API names every parameter it refuses; the error carries its envelope, status and request id.
try {
  await api.request('/competitions', { params: { query: { limit: 500 } } });
} catch (error) {
  if (!(error instanceof FederationApiError)) throw error;
  console.log(
    `limit=500 answered ${error.status} ${error.error.type}: ${error.error.details.join('; ')} (request ${error.requestId ? 'id given' : 'without id'})`,
  );
}
