import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { AppError } from '../domain/shared/app-error.js';
import { assertNotTooDeep } from './input-depth.js';
import { unstorablePaths } from './unstorable-text.js';

/** A JSON Schema (2020-12) object with an `$id`, as declared in `schemas/*.ts`. */
export type JsonSchema = { readonly $id?: string; readonly [keyword: string]: unknown };

export interface ParseOptions {
  /** Coerce strings to numbers/booleans (query strings and path parameters). */
  coerce?: boolean;
}

/** One registry of every schema: ajv validation, OpenAPI components and MCP tool schemas. */
export interface SchemaRegistry {
  /** Validates a copy of `data` (defaults applied) or throws VALIDATION_ERROR with dotted paths. */
  parse<T>(id: string, data: unknown, options?: ParseOptions): T;
  get(id: string): JsonSchema;
  has(id: string): boolean;
  ids(): string[];
  /** The schema with every `$ref` it reaches inlined under `$defs` (MCP clients do not resolve refs). */
  bundled(id: string): JsonSchema;
}

function buildAjv(schemas: readonly JsonSchema[], coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true, coerceTypes: coerce });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  for (const schema of schemas) ajv.addSchema(schema as object);
  return ajv;
}

export function createSchemaRegistry(schemas: readonly JsonSchema[]): SchemaRegistry {
  const byId = new Map<string, JsonSchema>();
  for (const schema of schemas) {
    if (!schema.$id) throw new Error('every registered schema needs an $id');
    if (byId.has(schema.$id)) throw new Error(`schema ${schema.$id} is registered twice`);
    byId.set(schema.$id, schema);
  }
  const strict = buildAjv(schemas, false);
  const coercing = buildAjv(schemas, true);
  const compiled = new Map<string, ValidateFunction>();

  const validatorFor = (id: string, coerce: boolean): ValidateFunction => {
    const key = `${coerce ? 'q' : 'b'}:${id}`;
    let fn = compiled.get(key);
    if (!fn) {
      fn = (coerce ? coercing : strict).getSchema(id);
      if (!fn) throw new Error(`unknown schema ${id}`);
      compiled.set(key, fn);
    }
    return fn;
  };

  const get = (id: string): JsonSchema => {
    const schema = byId.get(id);
    if (!schema) throw new Error(`unknown schema ${id}`);
    return schema;
  };

  return {
    parse<T>(id: string, data: unknown, options: ParseOptions = {}): T {
      assertNotTooDeep(data);
      const copy = data === undefined ? {} : cloneInput(data);
      const validate = validatorFor(id, options.coerce ?? false);
      if (!validate(copy)) throw AppError.validation(toFieldErrors(validate.errors ?? []));
      const unstorable = unstorablePaths(copy);
      if (unstorable.length) {
        throw AppError.validation(Object.fromEntries(unstorable.map(([path, reason]) => [path, [reason]])));
      }
      return copy as T;
    },
    get,
    has: (id) => byId.has(id),
    ids: () => [...byId.keys()],
    bundled(id) {
      const defs: Record<string, JsonSchema> = {};
      const root = rewriteRefs(get(id), defs, get);
      return Object.keys(defs).length ? { ...root, $defs: { ...(root.$defs as object), ...defs } } : root;
    },
  };
}

/** Stands for "not plain JSON data" while cloning. */
const NOT_PLAIN = Symbol('not plain');

/**
 * What `structuredClone` makes of `data`, faster for what parse is given almost always: JSON data
 * (plain objects and arrays of strings, numbers, booleans, null). Anything else (a Date, a Buffer,
 * a Map, a cycle) is cloned by `structuredClone` itself, which also throws on what it cannot clone.
 */
function cloneInput(data: unknown): unknown {
  const copy = clonePlain(data, 0);
  return copy === NOT_PLAIN ? structuredClone(data) : copy;
}

function clonePlain(value: unknown, depth: number): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  // Deeper than any input (assertNotTooDeep refuses those first): structuredClone decides.
  if (depth > 100) return NOT_PLAIN;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return NOT_PLAIN;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      // a hole stays a hole, as structuredClone keeps it
      if (!(i in value)) continue;
      const inner = clonePlain(value[i], depth + 1);
      if (inner === NOT_PLAIN) return NOT_PLAIN;
      out[i] = inner;
    }
    if (Object.keys(value).length !== countPresent(value)) return NOT_PLAIN;
    return out;
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const inner = clonePlain((value as Record<string, unknown>)[key], depth + 1);
    if (inner === NOT_PLAIN) return NOT_PLAIN;
    // `__proto__` from JSON is an own field: assigning it would set the copy's prototype instead
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: inner, enumerable: true, writable: true, configurable: true });
    else out[key] = inner;
  }
  return out;
}

/** Indexes present in an array (holes left out): other own keys make it not plain. */
function countPresent(array: unknown[]): number {
  let n = 0;
  for (let i = 0; i < array.length; i++) if (i in array) n++;
  return n;
}

function rewriteRefs(
  schema: JsonSchema,
  defs: Record<string, JsonSchema>,
  get: (id: string) => JsonSchema,
): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
        if (!(value in defs)) {
          defs[value] = {}; // placeholder first: breaks cycles
          const { $id: _id, ...rest } = get(value);
          defs[value] = walk(rest) as JsonSchema;
        }
        out.$ref = `#/$defs/${value}`;
      } else if (key !== '$id') {
        out[key] = walk(value);
      }
    }
    return out;
  };
  return { ...(walk(schema) as JsonSchema), $id: schema.$id };
}

/** ajv errors → `{"lines.0.quantity": ["must be >= 0.001"]}` (JSON pointer → dotted path). */
export function toFieldErrors(errors: readonly ErrorObject[]): Record<string, string[]> {
  // A Map, not an object: a client's field may be named `constructor` or `__proto__`.
  const fields = new Map<string, string[]>();
  const add = (path: string, message: string) => {
    const key = path || 'body';
    const list = fields.get(key) ?? [];
    if (!list.includes(message)) list.push(message);
    fields.set(key, list);
  };
  for (const error of errors) {
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
    const join = (child: string) => (path ? `${path}.${child}` : child);
    switch (error.keyword) {
      case 'required':
        add(join(String(error.params.missingProperty)), 'is required');
        break;
      case 'additionalProperties':
        add(join(String(error.params.additionalProperty)), 'is not an allowed property');
        break;
      case 'format':
        add(path, `must be a valid ${error.params.format}`);
        break;
      case 'enum':
        add(path, `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`);
        break;
      case 'if':
        break; // the failing `then`/`else` branch reports the real reason
      default:
        add(path, error.message ?? 'is invalid');
    }
  }
  return Object.fromEntries(fields);
}
