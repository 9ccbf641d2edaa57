// What a consumer of the client package writes: the latest competitions in a country, one of them in
// full, and a refused request's error envelope.
//   node client/example.ts [baseUrl] [country]    (baseUrl defaults to http://127.0.0.1:8080/api/v1)
import { createFederationClient } from 'federation-read-client';

const [baseUrl = 'http://127.0.0.1:8080/api/v1', country = 'LV'] = process.argv.slice(2);
const api = createFederationClient(baseUrl);

const list = await api.GET('/competitions', {
  params: { query: { country, sort: 'startDate', order: 'desc', limit: 5 } },
});
if (list.error) throw new Error(`GET /competitions answered ${list.response.status}: ${list.error.error.message}`);
console.log(`${list.data.meta.total} competitions in ${country}; the latest ${list.data.data.length}:`);
for (const c of list.data.data)
  console.log(`  ${c.dates.start}  ${c.name} (${c.location.label ?? 'no venue'}), registration ${c.registration.state}`);

const first = list.data.data[0];
if (first) {
  // A detail by slug, with its categories.
  const detail = await api.GET('/competitions/{idOrSlug}', { params: { path: { idOrSlug: first.slug } } });
  const categories = detail.data?.data.categories ?? [];
  console.log(`${first.slug}: ${categories.length} categories (${categories.map((c) => c.name).join(', ')})`);
}

// The API names every parameter it refuses; the envelope is typed like the bodies.
const refused = await api.GET('/competitions', { params: { query: { limit: 500 } } });
console.log(`limit=500 answered ${refused.response.status}: ${refused.error?.error.details.join('; ')}`);
