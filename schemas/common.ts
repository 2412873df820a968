/** Schemas shared by every context: error bodies and empty inputs. */

export const ErrorResponse = {
  $id: 'ErrorResponse',
  type: 'object',
  description: 'Every error except validation failures.',
  required: ['message', 'error', 'code', 'error_code'],
  properties: {
    message: { type: 'string', description: 'What went wrong and, where possible, what to do next.' },
    error: { type: 'string', description: 'The code in lower snake case (`not_found`).' },
    code: { type: 'string', description: 'Upper snake case error code (`NOT_FOUND`).' },
    error_code: { type: 'string', description: 'Same value as `code`, for clients of the reference shape.' },
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

export const commonSchemas = [ErrorResponse, ValidationErrorResponse, EmptyInput];
