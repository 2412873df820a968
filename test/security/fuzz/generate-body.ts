import type { JsonSchema } from '../../../schemas/registry.js';
import type { Prng } from './prng.js';

/**
 * A value valid against a JSON Schema of the registry: the fuzzer's starting point, which its
 * mutations then break. It follows the keywords our schemas use ($ref, type, enum, const, anyOf,
 * properties, required, items, lengths, bounds, formats, patterns); a pattern it does not know
 * yields a plain word (the body is then refused with a 422, still a valid fuzz case).
 */
type Lookup = (id: string) => JsonSchema;
type Node = Record<string, unknown>;

/** A value matching each pattern of schemas/*.ts. */
export const PATTERN_SAMPLES: Record<string, string> = {
  '^[0-9]{14}$': '73282932000074',
  "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$": 'X-Fuzz',
  '^[\\t\\x20-\\x7e]*$': 'fuzz value',
  '^whsec_[A-Za-z0-9]{32}$': `whsec_${'Ab3'.repeat(10)}Cd`,
  '^[0-9a-f]{64}$': 'ab'.repeat(32),
  '^[A-Z]{2}$': 'FR',
  '^[^\\u0000-\\u001F\\u007F]+$': 'ext-fuzz',
  '\\S': 'Fuzz',
  '^[A-Z]{2}[0-9A-Z+*.]{2,12}$': 'FR44732829320',
  '^[A-Z]{3}$': 'EUR',
  '^[A-Z]{2}[0-9A-Z+*.]{2,13}$': 'FR44732829320',
  '^[A-Z0-9]{1,3}$': 'S',
  '^[A-Z0-9]{1,10}$': 'VT',
  '^[^\\t\\r\\n|]*[^\\s|][^\\t\\r\\n|]*$': 'Ventes',
  '^[0-9]{3}[0-9A-Z]{0,17}$': '706000',
  '^[a-z][a-z0-9_]{0,49}([.][a-z][a-z0-9_]{0,49}){1,3}$': 'custom.fuzz',
  '^-?\\d+\\.\\d{2}$': '10.00',
  '^[0-9]{1,40}$': '42',
  '^(api|fr):[a-z0-9_]+$': 'api:fuzz',
};

/** The sample of a pattern, else any known sample it accepts (a rewritten pattern keeps working). */
export function patternSample(pattern: string): string {
  const known = PATTERN_SAMPLES[pattern];
  if (known !== undefined) return known;
  const regex = new RegExp(pattern, 'u');
  return Object.values(PATTERN_SAMPLES).find((sample) => regex.test(sample)) ?? 'fuzz';
}

/** Plain strings the operations check further than the schema does, by property name. */
const NAME_SAMPLES: Record<string, string> = {
  password: 'correct horse battery staple',
  password_confirmation: 'correct horse battery staple',
  phone: '+33612345678',
  postal_code: '75002',
  url: 'https://hooks.example.com/fuzz',
  webhook_url: 'https://hooks.example.com/fuzz',
  website: 'https://www.example.com',
};

const FORMAT_SAMPLES: Record<string, (rng: Prng) => string> = {
  uuid: (rng) => uuidFrom(rng),
  date: () => '2026-11-20',
  'date-time': () => '2026-11-20T10:00:00Z',
  email: (rng) => `fuzz-${rng.int(0, 1e9)}@example.com`,
  uri: () => 'https://hooks.example.com/fuzz',
};

export function uuidFrom(rng: Prng): string {
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** The schema with its `$ref` (to a registry id) replaced by the schema it names, siblings kept. */
export function resolve(schema: Node, lookup: Lookup): Node {
  let node = schema;
  while (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) {
    const { $ref, ...rest } = node;
    node = { ...(lookup($ref as string) as Node), ...rest };
  }
  return node;
}

export function validValue(schema: JsonSchema, lookup: Lookup, rng: Prng, omit: readonly string[] = []): unknown {
  return generate(schema as Node, lookup, rng, 0, omit);
}

function generate(
  raw: Node,
  lookup: Lookup,
  rng: Prng,
  depth: number,
  omit: readonly string[] = [],
  name = '',
): unknown {
  const schema = resolve(raw, lookup);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum))
    return rng.pick(schema.enum.filter((v) => v !== null).length ? schema.enum.filter((v) => v !== null) : schema.enum);
  const branches = (schema.anyOf ?? schema.oneOf) as Node[] | undefined;
  if (branches?.length)
    return generate({ ...withoutKeys(schema, ['anyOf', 'oneOf']), ...rng.pick(branches) }, lookup, rng, depth);
  const types = [schema.type].flat().filter((t): t is string => typeof t === 'string');
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (schema.properties ? 'object' : 'string');
  switch (type) {
    case 'object':
      return objectValue(schema, lookup, rng, depth, omit);
    case 'array':
      return arrayValue(schema, lookup, rng, depth);
    case 'string':
      return stringValue(schema, rng, name);
    case 'integer':
    case 'number':
      return numberValue(schema, rng, type === 'integer');
    case 'boolean':
      return rng.chance(0.5);
    default:
      return null;
  }
}

const withoutKeys = (node: Node, keys: string[]) =>
  Object.fromEntries(Object.entries(node).filter(([k]) => !keys.includes(k)));

function objectValue(schema: Node, lookup: Lookup, rng: Prng, depth: number, omit: readonly string[]): Node {
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  const required = new Set((schema.required ?? []) as string[]);
  const out: Node = {};
  for (const [name, property] of Object.entries(properties)) {
    if (omit.includes(name)) continue;
    if (required.has(name) || (depth < 4 && rng.chance(0.6)))
      out[name] = generate(property, lookup, rng, depth + 1, [], name);
  }
  const additional = schema.additionalProperties;
  if (!Object.keys(properties).length && additional && typeof additional === 'object' && depth < 4) {
    const names = resolve((schema.propertyNames ?? {}) as Node, lookup);
    const count = Math.min(rng.int(1, 2), Number(schema.maxProperties ?? 2));
    for (let i = 0; i < count; i++) {
      const base = typeof names.pattern === 'string' ? patternSample(names.pattern) : 'key';
      out[`${base}${i || ''}`] = generate(additional as Node, lookup, rng, depth + 1);
    }
  }
  return out;
}

function arrayValue(schema: Node, lookup: Lookup, rng: Prng, depth: number): unknown[] {
  const min = Number(schema.minItems ?? 0);
  const max = Math.min(Number(schema.maxItems ?? min + 2), min + 2);
  const count = rng.int(Math.max(min, depth < 4 ? 1 : 0), Math.max(min, max));
  const items = (schema.items ?? {}) as Node;
  const out: unknown[] = [];
  for (let i = 0; i < count * 3 && out.length < count; i++) {
    const value = generate(items, lookup, rng, depth + 1);
    if (schema.uniqueItems && out.some((v) => JSON.stringify(v) === JSON.stringify(value))) continue;
    out.push(value);
  }
  return out;
}

function stringValue(schema: Node, rng: Prng, name: string): string {
  const format = schema.format as string | undefined;
  let value: string;
  if (format && FORMAT_SAMPLES[format]) value = FORMAT_SAMPLES[format](rng);
  else if (typeof schema.pattern === 'string') value = patternSample(schema.pattern);
  else value = NAME_SAMPLES[name] ?? rng.pick(['Fuzz text value', 'Conseil', 'Acme SAS', `v${rng.int(0, 1e6)}`]);
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Number.POSITIVE_INFINITY);
  if (value.length < min) value = value.padEnd(min, 'x');
  if (value.length > max) value = value.slice(0, max);
  return value;
}

function numberValue(schema: Node, rng: Prng, integer: boolean): number {
  const low = Number(
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 0),
  );
  const high = Number(schema.maximum ?? Math.max(low, 0) + 100);
  const value = low + rng.next() * (high - low);
  return integer ? Math.max(low, Math.min(high, Math.round(value))) : Math.round(value * 100) / 100;
}
