import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { CallerKind } from '../../domain/shared/caller.js';
import { type JsonSchema, type SchemaRegistry, toFieldErrors } from '../../schemas/registry.js';
import { BASE_GROUPS, PAGING, type ToolAnnotations, type ToolInput, type ToolSpec } from './tool.js';
import { TOOLS } from './tools/index.js';

/** A tool as `tools/list` shows it. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: ToolAnnotations & { title: string };
}

export interface CatalogueTool {
  spec: ToolSpec;
  listed: ListedTool;
  /** Validates the arguments (defaults applied in place); field messages when they do not fit. */
  check(args: Record<string, unknown>): Record<string, string[]> | null;
}

/**
 * The tool table made ready to serve: each tool's input schema resolved against the schema registry
 * (`$ref`s inlined, as MCP clients do not resolve them), its validator compiled on first use, and
 * the lists per audience (a user's key: the 16 base tools; a tenant's key: all 54).
 */
export class ToolCatalogue {
  private readonly byName = new Map<string, CatalogueTool>();
  readonly forUsers: readonly ListedTool[];
  readonly forTenants: readonly ListedTool[];

  constructor(schemas: SchemaRegistry, tools: readonly ToolSpec[] = TOOLS) {
    const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    for (const spec of tools) {
      const inputSchema = portable(resolveInput(spec.input, schemas)) as JsonSchema;
      let validate: ValidateFunction | undefined;
      this.byName.set(spec.name, {
        spec,
        listed: {
          name: spec.name,
          title: spec.title,
          description: spec.description,
          inputSchema,
          annotations: { title: spec.title, ...spec.annotations },
        },
        check(args) {
          validate ??= ajv.compile(inputSchema);
          return validate(args) ? null : toFieldErrors(validate.errors ?? []);
        },
      });
    }
    const all = [...this.byName.values()];
    this.forTenants = all.map((tool) => tool.listed);
    this.forUsers = all.filter((tool) => BASE_GROUPS.has(tool.spec.group)).map((tool) => tool.listed);
  }

  get size(): number {
    return this.byName.size;
  }

  /** The tool of that name the caller may see; undefined for an unknown name or one of another audience. */
  find(name: string, kind: CallerKind): CatalogueTool | undefined {
    const tool = this.byName.get(name);
    if (!tool) return undefined;
    return kind === 'tenant' || BASE_GROUPS.has(tool.spec.group) ? tool : undefined;
  }

  listFor(kind: CallerKind): readonly ListedTool[] {
    return kind === 'tenant' ? this.forTenants : this.forUsers;
  }
}

const catalogues = new WeakMap<SchemaRegistry, ToolCatalogue>();

/** One catalogue per schema registry (per process), built on first use. */
export function toolCatalogueOf(schemas: SchemaRegistry): ToolCatalogue {
  let catalogue = catalogues.get(schemas);
  if (!catalogue) {
    catalogue = new ToolCatalogue(schemas);
    catalogues.set(schemas, catalogue);
  }
  return catalogue;
}

/** A tool's input as the JSON Schema a client is given (and its arguments are checked against). */
function resolveInput(input: ToolInput, schemas: SchemaRegistry): JsonSchema {
  if (typeof input === 'string') return withoutId(schemas.bundled(input));
  if (typeof input.base !== 'string') return { type: 'object', ...input };
  const adapted = input as {
    base: string;
    paging?: boolean;
    omit?: readonly string[];
    rename?: Record<string, string>;
  };
  const { base, paging } = adapted;
  const omit: readonly string[] = adapted.omit ?? [];
  const rename: Record<string, string> = adapted.rename ?? {};
  const schema = withoutId(schemas.bundled(base)) as JsonSchema & {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const properties: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (omit.includes(name)) continue;
    properties[rename[name] ?? name] = paging && name in PAGING ? PAGING[name] : property;
  }
  const required = (schema.required ?? []).filter((name) => !omit.includes(name)).map((name) => rename[name] ?? name);
  const { required: _required, ...rest } = schema;
  return { ...rest, properties, ...(required.length ? { required } : {}) };
}

/**
 * `type: ["string", "null"]` → `anyOf: [{type: string}, {type: null}]`, the other keywords kept: the
 * same schema, in the form tool-schema dialects with a single `type` accept (the Inspector's
 * portability check; Gemini-style function declarations).
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' && Array.isArray(value)) out.anyOf = value.map((type) => ({ type }));
    else
      out[key] = key === 'enum' || key === 'const' || key === 'default' || key === 'examples' ? value : portable(value);
  }
  return out;
}

function withoutId(schema: JsonSchema): JsonSchema {
  const { $id: _id, $schema: _schema, ...rest } = schema as JsonSchema & { $schema?: string };
  return rest;
}
