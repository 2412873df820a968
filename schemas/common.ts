import { ERROR_CODES } from '../domain/shared/error-codes.js';

/** Schemas shared by every context: error bodies and empty inputs. */

export const ErrorResponse = {
  $id: 'ErrorResponse',
  type: 'object',
  description:
    'An error, as every surface reports it: HTTP bodies (except 422 validation failures, `ValidationErrorResponse`), bulk results per item, stopped jobs, the CLI. `code` is one of the error catalogue (docs/api/conventions.md).',
  required: ['message', 'error', 'code', 'error_code'],
  properties: {
    message: { type: 'string', description: 'What went wrong and, where possible, what to do next.' },
    error: { type: 'string', description: 'The code in lower snake case (`not_found`).' },
    code: { type: 'string', enum: ERROR_CODES, description: 'Upper snake case error code (`NOT_FOUND`).' },
    error_code: {
      type: 'string',
      enum: ERROR_CODES,
      description: 'Same value as `code`, for clients of the reference shape.',
    },
    errors: {
      type: 'object',
      description: 'On `VALIDATION_ERROR` outside HTTP (bulk items, CLI, jobs): messages per dotted field path.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
    request_id: { type: 'string', description: 'The request id, on internal errors, to quote to support.' },
  },
  additionalProperties: true,
} as const;

export const ValidationErrorResponse = {
  $id: 'ValidationErrorResponse',
  type: 'object',
  description: 'A 422 validation failure; `errors` is keyed by dotted path (`lines.0.quantity`).',
  required: ['message', 'errors'],
  properties: {
    message: { type: 'string', description: 'The first problem, in words.' },
    errors: {
      type: 'object',
      description: 'Messages per field path.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
  additionalProperties: false,
} as const;

export const EmptyInput = {
  $id: 'EmptyInput',
  type: 'object',
  description: 'No parameters.',
  additionalProperties: false,
  properties: {},
} as const;
export type EmptyInput = Record<string, never>;

export const PageMeta = {
  $id: 'PageMeta',
  type: 'object',
  description: 'Where a page sits in a list (spec "Limits": pagination).',
  additionalProperties: false,
  required: ['current_page', 'last_page', 'per_page', 'total'],
  properties: {
    current_page: { type: 'integer', description: 'This page, from 1.' },
    last_page: { type: 'integer', description: 'The last page (1 for an empty list).' },
    per_page: { type: 'integer', description: 'Items per page.' },
    total: { type: 'integer', description: 'Items in the whole list.' },
  },
} as const;

/**
 * The deepest row a page may start at. PostgreSQL's OFFSET is a bigint, but a page number whose
 * offset is not a safe JavaScript integer (page=1e15) turns into a malformed query: the page is
 * bounded so that page × per_page stays far below either limit (a list that deep is read by filters).
 */
export const MAX_PAGE_OFFSET = 1_000_000_000;

/** `page` and `per_page` query properties for list inputs; `perPageDefault` per the specification. */
export const pageParams = (perPageDefault = 25, perPageMax = 100) =>
  ({
    page: {
      type: 'integer',
      minimum: 1,
      maximum: Math.floor(MAX_PAGE_OFFSET / perPageMax),
      default: 1,
      description: 'Page number, from 1.',
    },
    per_page: {
      type: 'integer',
      minimum: 1,
      maximum: perPageMax,
      default: perPageDefault,
      description: `Items per page (default ${perPageDefault}, at most ${perPageMax}).`,
    },
  }) as const;

/** A `{data: [item], meta}` list output; `id` and `itemRef` stay literal types, for FromSchema. */
export const pageOf = <Id extends string, ItemRef extends string>(id: Id, itemRef: ItemRef, description: string) =>
  ({
    $id: id,
    type: 'object',
    description,
    additionalProperties: false,
    required: ['data', 'meta'],
    properties: {
      data: { type: 'array', items: { $ref: itemRef }, description: 'The items of this page.' },
      meta: { $ref: 'PageMeta', description: 'Pagination.' },
    },
  }) as const;

/**
 * The input of a worker step that works a fetched batch of jobs at once: `{<key>: [{id, tenant_id}]}`,
 * one item per job, each naming its row and the tenant that queued it.
 */
export const tenantRowsBatch = <Id extends string, Key extends string>(
  id: Id,
  key: Key,
  description: string,
  rowDescription: string,
) =>
  ({
    $id: id,
    type: 'object',
    description,
    additionalProperties: false,
    required: [key],
    properties: {
      [key]: {
        type: 'array',
        minItems: 1,
        maxItems: 100,
        description: 'One per job of the batch.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'tenant_id'],
          properties: {
            id: { type: 'string', format: 'uuid', description: rowDescription },
            tenant_id: { type: 'string', format: 'uuid', description: 'Its tenant.' },
          },
        },
      },
    } as { [K in Key]: TenantRows },
  }) as const;

interface TenantRows {
  type: 'array';
  minItems: 1;
  maxItems: 100;
  description: string;
  items: {
    type: 'object';
    additionalProperties: false;
    required: ['id', 'tenant_id'];
    properties: {
      id: { type: 'string'; format: 'uuid'; description: string };
      tenant_id: { type: 'string'; format: 'uuid'; description: string };
    };
  };
}

export const commonSchemas = [ErrorResponse, ValidationErrorResponse, EmptyInput, PageMeta];
