import type { TSchema } from '@sinclair/typebox';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A TypeBox schema as plain JSON Schema for the OpenAPI document: TypeBox's symbol keys are
 * dropped, and every nested schema whose `title` names a component becomes a `$ref` to it.
 */
export function toOpenApiSchema(schema: TSchema, components: ReadonlySet<string>): Json {
  const plain = JSON.parse(JSON.stringify(schema)) as Json;
  return replaceNamed(plain, components, true);
}

function replaceNamed(node: Json, components: ReadonlySet<string>, isRoot: boolean): Json {
  if (Array.isArray(node)) return node.map((item) => replaceNamed(item, components, false));
  if (node === null || typeof node !== 'object') return node;
  const title = node.title;
  if (!isRoot && typeof title === 'string' && components.has(title)) return { $ref: `#/components/schemas/${title}` };
  const result: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    // `default`, `enum` and `const` hold data, not schemas.
    result[key] = key === 'default' || key === 'enum' || key === 'const' ? value : replaceNamed(value, components, false);
  }
  return result;
}

/** Every titled schema reachable from the roots, by title (the first one found wins). */
export function collectNamedSchemas(roots: readonly TSchema[]): Map<string, TSchema> {
  const found = new Map<string, TSchema>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const { title } = node as { title?: unknown };
    if (typeof title === 'string' && !found.has(title)) found.set(title, node as TSchema);
    Object.values(node).forEach(visit);
  };
  roots.forEach(visit);
  return found;
}
