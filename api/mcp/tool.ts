import type { Caller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import type { Operation } from '../../domain/shared/operation.js';
import type { JsonSchema } from '../../schemas/registry.js';

/** The tool groups of the specification ("MCP server", Tools), in its order. */
export type ToolGroup =
  | 'invoices'
  | 'signatures'
  | 'credit_notes'
  | 'fiscal'
  | 'system'
  | 'validation'
  | 'account'
  | 'audit'
  | 'tenant'
  | 'billing'
  | 'statistics'
  | 'sub_tenants'
  | 'incoming';

/** The groups a user's key reaches (16 tools); a tenant's key reaches every group (54). */
export const BASE_GROUPS: ReadonlySet<ToolGroup> = new Set([
  'invoices',
  'signatures',
  'validation',
  'system',
  'account',
  'audit',
]);

/**
 * A tool's arguments: an operation's input schema by `$id`; that schema adapted (`paging`: the MCP
 * list tools' 15 per page; `omit`: fields the tool does not offer; `rename`: a field under the name a
 * model is given, `{id: 'sub_tenant_id'}`); or a JSON Schema of its own.
 */
export type ToolInput =
  | string
  | { base: string; paging?: boolean; omit?: readonly string[]; rename?: Record<string, string> }
  | JsonSchema;

/** MCP tool annotations (hints for the client; the server enforces nothing by them). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** An operation and its input, as one tool call resolves to. */
// biome-ignore lint/suspicious/noExplicitAny: a table holds operations of every input and output type
export type AnyOperation = Operation<any, any>;

/**
 * A tool is data, as a route is: its name, what a model reads about it, its arguments (a JSON Schema
 * of its own, or an operation's input schema by `$id` where the arguments are the same), and the
 * operation it calls through `execute()` with the arguments mapped to that operation's input.
 */
export interface ToolSpec {
  name: string;
  group: ToolGroup;
  title: string;
  /** For a model: what it does, when to use it, what it costs or destroys. */
  description: string;
  /** The arguments: a registry schema id (the operation's own input), such a schema adapted, or a schema of the tool's own. */
  input: ToolInput;
  annotations: ToolAnnotations;
  /** The operation called, the same as the HTTP route's; a function where the arguments decide (audit trails). */
  operation: AnyOperation | ((args: Record<string, unknown>) => AnyOperation);
  /**
   * Arguments → the operation's input; the arguments as they are when left out. May fetch what the
   * arguments name (a document by URL), outside any transaction.
   */
  toInput?: (
    args: Record<string, unknown>,
    caller: Caller,
    deps: Deps,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
}

export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Creates something new each call (not idempotent), destroys nothing. */
export const CREATE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
/** Changes something; doing it twice is doing it once. */
export const UPDATE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Deletes, cancels or changes something irreversibly. */
export const DESTROY: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/** Arguments of a tool that takes one id, named for the model (`invoice_id`), given to the operation as `id`. */
export function idArgument(name: string, description: string, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: [name],
    properties: { [name]: { type: 'string', format: 'uuid', description }, ...extra },
  };
}

/** `{invoice_id, ...rest}` → `{id, ...rest}`. */
export const renameId =
  (name: string) =>
  (args: Record<string, unknown>): Record<string, unknown> => {
    const { [name]: id, ...rest } = args;
    return { ...rest, id };
  };

/** The spec's MCP list tools page by 15 by default, at most 100 (spec "Limits", Pagination). */
export const PAGING: Record<string, JsonSchema> = {
  page: { type: 'integer', minimum: 1, default: 1, description: 'Page number, from 1.' },
  per_page: {
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 15,
    description: 'Items per page, 15 by default, at most 100.',
  },
};
