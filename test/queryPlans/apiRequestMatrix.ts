import type { TSchema } from '@sinclair/typebox';
import { parseQuery } from '../../api/query/index.ts';
import { ENDPOINTS, type EndpointName } from '../../schemas/api/endpoints.ts';

// The requests that send the API through every query shape it has, generated from the query
// schemas of the endpoint catalogue, so a new filter, sort or endpoint is requested without
// anyone listing it here. Only the values come from outside: the path parameters' (ids that
// exist, ids that do not) and candidates for free-text parameters.

export interface MatrixValues {
  /** Every value of each path parameter, by name; each is requested with every query. */
  readonly pathValues: Readonly<Record<string, readonly string[]>>;
  /** Free-text candidates; a text parameter gets each one its schema accepts. */
  readonly textCandidates: readonly string[];
  /** The value of UUID parameters (one that exists makes the API do its real work). */
  readonly id: string;
  /** `YYYY-MM-DD`: the value of day and instant parameters. */
  readonly today: string;
}

/** Parameters that page or order the result rather than filter it; sort and order are crossed with every filter combination. */
const PAGING = new Set(['page', 'limit']);
const ORDERING = ['sort', 'order'];

type Schema = TSchema & { enum?: string[]; type?: string; format?: string; items?: Schema };

const accepts = (endpoint: EndpointName, name: string, value: string): boolean =>
  parseQuery(endpoint, new URLSearchParams([[name, value]]).toString()).ok;

/**
 * The values of one parameter that may change the query's shape: each enum value, one and all
 * items of an enum list, both booleans, a number, a day, an instant, and every text candidate the
 * schema accepts (a one-token and a several-token search are planned apart).
 */
export function parameterVariants(endpoint: EndpointName, name: string, values: MatrixValues): string[] {
  const schema: Schema | undefined = ENDPOINTS[endpoint].query.properties[name];
  if (!schema) throw new Error(`${endpoint} has no query parameter ${name}`);
  const text = (): string[] => values.textCandidates.filter((candidate) => accepts(endpoint, name, candidate));
  let variants: string[];
  if (schema.enum) variants = [...schema.enum];
  else if (schema.type === 'array') {
    const items = schema.items?.enum;
    variants = items ? [...new Set([items[0] ?? '', items.join(',')])] : text().slice(0, 1);
  } else if (schema.type === 'boolean') variants = ['true', 'false'];
  else if (schema.type === 'integer') variants = [String((schema as { minimum?: number }).minimum ?? 0)];
  else if (schema.type === 'string' && schema.format === 'date') variants = [values.today];
  else if (schema.type === 'string' && schema.format === 'date-time') variants = [`${values.today}T00:00:00Z`];
  else if (schema.type === 'string' && schema.format === 'uuid') variants = [values.id];
  else if (schema.type === 'string') variants = text();
  else variants = [];
  const rejected = variants.filter((value) => !accepts(endpoint, name, value));
  if (variants.length === 0 || rejected.length > 0) {
    throw new Error(
      `no accepted value for ${endpoint}?${name} (schema ${JSON.stringify(schema)}; rejected ${JSON.stringify(rejected)}): add a text candidate it accepts`,
    );
  }
  return variants;
}

type Combination = ReadonlyArray<[string, string]>;

/**
 * No filter; each filter alone with each of its variants; every pair, each with every variant
 * of both; all but one; all (these with the first variants). The index plan picks one leading
 * filter and checks the others on the walked documents, so a shape is decided by the leading
 * filter and whichever others bound its index (the base filter, a range on the sort key): pairs
 * meet each leading filter in each form with each other filter in each form, all-but-one gives
 * every filter its turn behind the ones that outrank it.
 */
export function filterCombinations(filters: ReadonlyArray<{ readonly name: string; readonly variants: readonly string[] }>): Combination[] {
  const first = (f: { name: string; variants: readonly string[] }): [string, string] => [f.name, f.variants[0] ?? ''];
  const combinations: Combination[] = [[]];
  for (const f of filters) for (const v of f.variants) combinations.push([[f.name, v]]);
  for (let i = 0; i < filters.length; i++) {
    for (let j = i + 1; j < filters.length; j++) {
      for (const a of filters[i]!.variants)
        for (const b of filters[j]!.variants)
          combinations.push([
            [filters[i]!.name, a],
            [filters[j]!.name, b],
          ]);
    }
  }
  if (filters.length > 2) for (const left of filters) combinations.push(filters.filter((f) => f !== left).map(first));
  if (filters.length > 1) combinations.push(filters.map(first));
  return combinations;
}

function expandPath(template: string, values: MatrixValues): string[] {
  let paths = [template];
  for (const [, name] of template.matchAll(/\{(\w+)\}/g)) {
    const given = values.pathValues[name!];
    if (!given || given.length === 0) throw new Error(`no value for path parameter {${name}} of ${template}`);
    paths = paths.flatMap((path) => given.map((value) => path.replace(`{${name}}`, encodeURIComponent(value))));
  }
  return paths;
}

/** Every request of one endpoint: each path value × each filter combination × each sort and order. */
export function endpointRequests(endpoint: EndpointName, values: MatrixValues): string[] {
  const definition = ENDPOINTS[endpoint];
  const names = Object.keys(definition.query.properties);
  const filters = names
    .filter((n) => !PAGING.has(n) && !ORDERING.includes(n))
    .map((name) => ({ name, variants: parameterVariants(endpoint, name, values) }));
  let orderings: Combination[] = [[]];
  for (const name of ORDERING.filter((n) => names.includes(n))) {
    const variants = parameterVariants(endpoint, name, values);
    orderings = orderings.flatMap((ordering) => variants.map((v): Combination => [...ordering, [name, v]]));
  }
  const queries = new Set<string>();
  for (const combination of filterCombinations(filters)) {
    for (const ordering of orderings) queries.add(new URLSearchParams([...combination, ...ordering]).toString());
  }
  return expandPath(definition.path, values).flatMap((path) => [...queries].map((query) => (query === '' ? path : `${path}?${query}`)));
}

/** The endpoints that read the database: every one but the static documents. */
export function dataEndpoints(): EndpointName[] {
  return (Object.keys(ENDPOINTS) as EndpointName[]).filter((name) => ENDPOINTS[name].listings.length > 0);
}
