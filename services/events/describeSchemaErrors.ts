import type { ErrorObject } from 'ajv';
import { BANNER_KEY_PATTERN, COUNTRY_CODE_PATTERN, UUID_PATTERN } from '../../schemas/events/index.ts';

// ajv's own messages ("must match format \"uuid\"", "must have required property 'x'") are
// written for schema authors; dead-letter reasons are read by the people who publish events.

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT_NAMES: Record<string, string> = {
  uuid: 'a uuid',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date-time with offset (RFC 3339, e.g. 2025-03-01T09:30:00Z)',
};

const PATTERN_NAMES: Record<string, string> = {
  [UUID_PATTERN]: 'a uuid',
  [COUNTRY_CODE_PATTERN]: 'an ISO 3166-1 alpha-2 code (two capital letters)',
  [BANNER_KEY_PATTERN]: 'a pixel width or "default"',
};

/**
 * `/data/categoryIds/0` → `data.categoryIds[0]`. Indexes get brackets only where `root` shows an
 * array: a banner's pixel-width key `640` is an object key.
 */
export const describePath = (instancePath: string, root?: unknown): string => {
  let path = '';
  let node = root;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    const isIndex = root === undefined ? /^\d+$/.test(key) : Array.isArray(node);
    path = isIndex ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return path;
};

const list = (values: unknown): string =>
  (Array.isArray(values) ? values : [values]).map((value) => (value === null ? 'null' : String(value))).join(', ');

/** The allowed values of the discriminator (`role`) of a oneOf, read from its branches. */
const discriminatorValues = (error: ErrorObject): string[] => {
  const branches = (error.parentSchema as { oneOf?: { properties?: Record<string, { const?: string }> }[] })?.oneOf;
  const tag = String(error.params.tag);
  return (branches ?? []).map((branch) => branch.properties?.[tag]?.const).filter((v) => v !== undefined);
};

/** One readable phrase for one ajv error, or null for an error another one already explains. */
const describe = (error: ErrorObject, path: string): { path: string; message: string } | null => {
  const params = error.params as Record<string, unknown>;
  const at = (message: string) => ({ path, message });
  switch (error.keyword) {
    case 'additionalProperties':
      return at(`unexpected field "${String(params.additionalProperty)}"`);
    case 'type':
      return at(
        `must be ${(Array.isArray(params.type) ? params.type : [params.type]).map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' or ')}`,
      );
    case 'enum':
      return at(`must be one of ${list(params.allowedValues)}`);
    case 'const':
      return at(`must be ${JSON.stringify(params.allowedValue)}`);
    case 'format':
      return at(`must be ${FORMAT_NAMES[String(params.format)] ?? `in format ${String(params.format)}`}`);
    case 'pattern': {
      const name = PATTERN_NAMES[String(params.pattern)] ?? `a match of /${String(params.pattern)}/`;
      return error.propertyName === undefined ? at(`must be ${name}`) : at(`key "${error.propertyName}" must be ${name}`);
    }
    case 'propertyNames':
      return null;
    case 'minimum':
      return at(`must be ${String(params.limit)} or more`);
    case 'maximum':
      return at(`must be ${String(params.limit)} or less`);
    case 'minItems':
      return at(params.limit === 1 ? 'must not be empty' : `must hold at least ${String(params.limit)} items`);
    case 'minLength':
      return at(params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long`);
    case 'uniqueItems':
      return at(`must not repeat an item (items ${String(params.j)} and ${String(params.i)} are equal)`);
    case 'maxProperties':
      if (error.schemaPath.includes('/dependencies/default/')) return at('"default" must be the only key');
      return at(`must have at most ${String(params.limit)} fields`);
    case 'discriminator': {
      if (params.tagValue === undefined) return at(`missing required field "${String(params.tag)}"`);
      const tagPath = path ? `${path}.${String(params.tag)}` : String(params.tag);
      return { path: tagPath, message: `must be one of ${discriminatorValues(error).join(', ')}` };
    }
    default:
      return at(error.message ?? `fails ${error.keyword}`);
  }
};

const MAX_PHRASES = 10;

/**
 * All errors of one validation as one line, e.g. `eventId: must be a uuid; data.dates.start: must
 * be a date (YYYY-MM-DD)`. `root` is the validated value, read to tell array indexes from keys.
 */
export const describeSchemaErrors = (errors: readonly ErrorObject[] | null | undefined, root?: unknown): string => {
  const missingByPath = new Map<string, string[]>();
  const messagesByPath = new Map<string, string[]>();
  // Appended in place, and each pointer described once: one message may carry errors by the
  // hundred thousand, and a copy of the path's list per error made that quadratic.
  const listOf = (byPath: Map<string, string[]>, path: string): string[] => {
    let list = byPath.get(path);
    if (!list) byPath.set(path, (list = []));
    return list;
  };
  const paths = new Map<string, string>();
  const pathOf = (pointer: string): string => {
    let path = paths.get(pointer);
    if (path === undefined) paths.set(pointer, (path = describePath(pointer, root)));
    return path;
  };
  for (const error of errors ?? []) {
    if (error.keyword === 'required') {
      const path = pathOf(error.instancePath);
      listOf(missingByPath, path).push(`"${String(error.params.missingProperty)}"`);
      listOf(messagesByPath, path);
      continue;
    }
    const described = describe(error, pathOf(error.instancePath));
    if (described === null) continue;
    listOf(messagesByPath, described.path).push(described.message);
  }
  // Only the phrases shown are built; the rest are counted.
  const phrases: string[] = [];
  let count = 0;
  for (const [path, messages] of messagesByPath) {
    const missing = missingByPath.get(path) ?? [];
    const all =
      missing.length === 0 ? messages : [`missing required field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, ...messages];
    for (const message of new Set(all)) {
      if (count++ < MAX_PHRASES) phrases.push(path ? `${path}: ${message}` : message);
    }
  }
  if (count === 0) return 'does not match its schema';
  const more = count - MAX_PHRASES;
  return more > 0 ? `${phrases.join('; ')}; and ${more} more` : phrases.join('; ');
};
