import { AppError, isAppError } from './app-error.js';
import { type ErrorCode, errorWordOf } from './error-codes.js';
import { isCreditNoteLockViolation, isFiscalLockViolation } from './pg-errors.js';

/**
 * The specification's error shape, as every surface reports a failure: HTTP bodies, the CLI's
 * output, bulk results' per-item errors, stopped jobs' outputs (and the MCP server's tool errors,
 * through `errorLine`). `code` = `error_code`, `error` is the same word in lower case; extra fields
 * of the error follow (`existing_id`, `retry_after`, ...).
 */
export interface ErrorBody {
  message: string;
  error: string;
  code: ErrorCode;
  error_code: ErrorCode;
  /** Validation messages by dotted path (`lines.0.quantity`); only on VALIDATION_ERROR. */
  errors?: Record<string, string[]>;
  /** On internal errors, when the surface has a request id to quote to support. */
  request_id?: string;
  [extra: string]: unknown;
}

/** The specification's 422 body: `{message, errors}` and nothing else. */
export interface ValidationErrorBody {
  message: string;
  errors: Record<string, string[]>;
}

export interface ErrorBodyOptions {
  /** The request's id, quoted on internal errors. */
  requestId?: string;
  /**
   * An HTTP response body: the specification answers a validation failure with 422
   * `{message, errors}` only. The other surfaces keep the code on it too, so a reader can switch on it.
   */
  http?: boolean;
}

/** The fields that make the shape: an error's extra body cannot replace them. */
const CORE_FIELDS = new Set(['message', 'error', 'code', 'error_code', 'errors', 'request_id']);

/**
 * Any thrown value → the error shape. An AppError keeps its code, message and extra fields; an
 * unforeseen error becomes a generic INTERNAL_ERROR that shows nothing of the error itself (no
 * message, no stack: the caller logs those).
 */
export function errorBody(err: unknown, options?: ErrorBodyOptions & { http?: false }): ErrorBody;
export function errorBody(err: unknown, options: ErrorBodyOptions & { http: true }): ErrorBody | ValidationErrorBody;
export function errorBody(err: unknown, options: ErrorBodyOptions = {}): ErrorBody | ValidationErrorBody {
  const appError = asAppError(err);
  if (!appError) {
    const quote = options.requestId ? ` Quote request id ${options.requestId} to support.` : '';
    return withCode('INTERNAL_ERROR', `An internal error occurred.${quote}`, {
      ...(options.requestId ? { request_id: options.requestId } : {}),
    });
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(appError.extra.body ?? {})) {
    if (!CORE_FIELDS.has(key)) extra[key] = value;
  }
  if (appError.code === 'VALIDATION_ERROR') {
    const errors = appError.extra.fields ?? {};
    if (options.http) return { message: appError.message, errors };
    extra.errors = errors;
  }
  if (appError.code === 'INTERNAL_ERROR' && options.requestId) extra.request_id = options.requestId;
  return withCode(appError.code, appError.message, extra);
}

/**
 * The one-line form of an error body, `NOT_FOUND: No invoice 42.`: the CLI's human output, and the
 * text of an MCP tool result with `isError: true` (the model reads only this text). Validation
 * messages follow, one per line.
 */
export function errorLine(body: ErrorBody): string {
  const lines = [`${body.code}: ${body.message}`];
  for (const [path, messages] of Object.entries(body.errors ?? {})) {
    for (const message of messages) lines.push(`  ${path}: ${message}`);
  }
  return lines.join('\n');
}

/**
 * The AppError a thrown value stands for, or null for an unforeseen one. The database's refusal to
 * change an issued invoice or credit note (the last line of defence behind the domain's checks)
 * is a conflict the client caused, never a 500.
 */
export function asAppError(err: unknown): AppError | null {
  if (isAppError(err)) return err;
  if (isFiscalLockViolation(err)) {
    return new AppError(
      'INVOICE_IMMUTABLE',
      'This invoice is in the fiscal ledger: its fiscal fields and lines cannot change. Only metadata and archive_enabled can; correct an issued invoice with a credit note.',
      { cause: err },
    );
  }
  if (isCreditNoteLockViolation(err)) {
    return new AppError(
      'CREDIT_NOTE_IMMUTABLE',
      'This credit note is issued: its content cannot change, and once sent it cannot change at all. Issue another credit note instead.',
      { cause: err },
    );
  }
  return null;
}

function withCode(code: ErrorCode, message: string, extra: Record<string, unknown>): ErrorBody {
  return { message, error: errorWordOf(code), code, error_code: code, ...extra };
}
